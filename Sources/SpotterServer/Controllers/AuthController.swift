import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/api/v1/auth/*`: sign up, sign in (password, Apple or Nostr), refresh, sign out.
struct AuthController {
    let accounts: AccountService
    let links: AccountLinkService
    let nostr: NostrAccountService
    let trustForwardedFor: Bool

    /// Routes that mint tokens: open to anyone.
    var publicEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post("signup") { request, context in
            let body = try await request.decodeJSON(SignupRequest.self, context: context)
            let device = request.headers[.userAgent]
            let address = request.clientAddress(context: context, trustForwardedFor: trustForwardedFor)
            return EditedResponse(
                status: .created, response: try await accounts.signup(body, device: device, clientAddress: address))
        }
        routes.post("signin") { request, context in
            let body = try await request.decodeJSON(SigninRequest.self, context: context)
            let address = request.clientAddress(context: context, trustForwardedFor: trustForwardedFor)
            return try await accounts.signin(body, clientAddress: address, device: request.headers[.userAgent])
        }
        routes.post("refresh") { request, context in
            let body = try await request.decodeJSON(RefreshRequest.self, context: context)
            return try await accounts.refresh(refreshToken: body.refreshToken)
        }
        routes.post("apple") { request, context in
            let body = try await request.decodeJSON(AppleSigninRequest.self, context: context)
            let address = request.clientAddress(context: context, trustForwardedFor: trustForwardedFor)
            return try await accounts.signInWithApple(
                body, device: request.headers[.userAgent], clientAddress: address)
        }
        // NIP-98: the signed event in the Authorization header names this URL; 201 when it made the account.
        routes.post("nostr") { request, context in
            let address = request.clientAddress(context: context, trustForwardedFor: trustForwardedFor)
            let result = try await nostr.signIn(
                authorization: request.headers[.authorization], url: nostr.url(of: "/api/v1/auth/nostr"),
                device: request.headers[.userAgent], clientAddress: address)
            return EditedResponse(status: result.created ? .created : .ok, response: result.tokens)
        }
        // 202 whether or not the address has an account: the answer must not tell.
        routes.post("password-reset") { request, context in
            let body = try await request.decodeJSON(PasswordResetRequest.self, context: context)
            let address = request.clientAddress(context: context, trustForwardedFor: trustForwardedFor)
            try await links.requestPasswordReset(body, clientAddress: address)
            return Response(status: .accepted)
        }
        routes.post("password-reset/confirm") { request, context in
            let body = try await request.decodeJSON(PasswordResetConfirmation.self, context: context)
            try await links.resetPassword(body)
            return Response(status: .noContent)
        }
        return routes
    }

    /// Routes for a signed-in caller.
    var signedInEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post("signout") { _, context in
            try await accounts.signout(try context.requireIdentity())
            return Response(status: .noContent)
        }
        routes.post("password") { request, context in
            let body = try await request.decodeJSON(ChangePasswordRequest.self, context: context)
            try await accounts.changePassword(try context.requireIdentity(), with: body)
            return Response(status: .noContent)
        }
        return routes
    }
}

/// `/api/v1/me`: the caller's own account.
struct MeController {
    let accounts: AccountService
    let links: AccountLinkService

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get { _, context in try context.requireIdentity().account.account }
        routes.patch { request, context in
            let body = try await request.decodeJSON(UpdateAccountRequest.self, context: context)
            return try await accounts.update(try context.requireIdentity(), with: body)
        }
        routes.post("email") { request, context in
            let body = try await request.decodeJSON(EmailChangeRequest.self, context: context)
            try await links.requestEmailChange(try context.requireIdentity(), with: body)
            return Response(status: .accepted)
        }
        routes.post("email/confirm") { request, context in
            let body = try await request.decodeJSON(EmailChangeConfirmation.self, context: context)
            return try await links.confirmEmailChange(body, by: try context.requireIdentity().account.id)
        }
        return routes
    }
}

extension TokenResponse: ResponseEncodable {}
extension Account: ResponseEncodable {}
