import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SpotterCore
import SpotterModels
import SpotterNostr

/// The browser's Nostr routes, driven by `nostr.js` through a NIP-07 extension (`window.nostr`), which signs;
/// the browser never holds a secret key, and neither does the server.
///
/// - `POST /signin/nostr`: a NIP-98 `Authorization: Nostr …` header naming this URL, as the API's sign-in takes
///   it; success sets the session cookie exactly as the password form does, and answers where to go next.
/// - `POST /settings/nostr/challenge` and `POST /settings/nostr/keys`: link a key by signing a challenge.
/// - `POST /settings/nostr/unlink`: a plain form, which works without script.
///
/// The script's calls carry the page's CSRF token in `X-CSRF-Token`, checked by `WebSessionMiddleware`.
struct WebNostrController {
    let nostr: NostrAccountService
    let sessions: WebSessions
    let trustForwardedFor: Bool

    static let signInPath = "/signin/nostr"

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post("signin/nostr") { request, context in
            let returnTo = ReturnTo.localPath(request.uri.queryParameters["return_to"].map(String.init))
            do {
                let result = try await nostr.signIn(
                    authorization: request.headers[.authorization], url: nostr.url(of: Self.signInPath),
                    device: request.headers[.userAgent],
                    clientAddress: request.clientAddress(context: context, trustForwardedFor: trustForwardedFor))
                // A new account starts at the first-run page, as after the sign-up form.
                var response = try Self.json(["location": result.created ? "/welcome" : returnTo ?? "/"])
                response.setCookie(sessions.sessionCookie(result.tokens.refreshToken))
                return response
            } catch {
                return try Self.refusal(error)
            }
        }
        routes.post("settings/nostr/challenge") { _, context in
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            do {
                let challenge = try await nostr.challenge(session)
                return try Self.json(["challenge": challenge.challenge, "relay_url": challenge.relayURL])
            } catch {
                return try Self.refusal(error)
            }
        }
        routes.post("settings/nostr/keys") { request, context in
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            do {
                let body = try await request.decodeJSON(NostrLinkRequest.self, context: context)
                let key = try await nostr.link(body, session)
                return try Self.json(["npub": key.npub], status: .created)
            } catch {
                return try Self.refusal(error)
            }
        }
        routes.post("settings/nostr/unlink") { _, context in
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            try await nostr.unlink(context.web.form["pubkey"] ?? "", session)
            return WebPages.redirect(to: "/settings?saved=nostr-unlinked#nostr-title")
        }
        return routes
    }

    /// What the script shows when a call is refused: the service's words, with the status.
    private static func refusal(_ error: any Error) throws -> Response {
        guard let problems = FormProblems(error, inputs: [:]) else { throw error }
        return try json(["error": problems.messages.joined(separator: " ")], status: problems.status)
    }

    private static func json(_ fields: [String: String], status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONCoding.encoder.encode(fields))))
    }
}
