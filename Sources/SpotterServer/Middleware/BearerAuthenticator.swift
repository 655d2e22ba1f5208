import Foundation
import Hummingbird
import HummingbirdAuth
import SpotterCore

/// Reads `Authorization: Bearer <access token>` and attaches the caller's session to the context.
///
/// No header: the request goes on unauthenticated (routes that need a user refuse it with 401). A header with
/// an unknown, expired or revoked token: 401 at once, with `WWW-Authenticate` saying the token is invalid, so
/// clients know to refresh.
struct BearerAuthenticator: AuthenticatorMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService

    func authenticate(request: Request, context: Context) async throws -> AuthenticatedSession? {
        guard let token = request.bearerToken else { return nil }
        return try await accounts.authenticate(accessToken: token)
    }
}

/// Refuses requests that carry no valid access token.
struct RequireSignedIn: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard context.identity != nil else {
            throw SpotterError.unauthorized("Sign in first: send an access token as `Authorization: Bearer …`.")
        }
        return try await next(request, context)
    }
}
