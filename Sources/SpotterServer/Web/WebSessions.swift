import Crypto
import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// Browser sessions, built on the API's token machinery rather than beside it.
///
/// Signing in through a web form is an ordinary `AccountService` sign-in; the login's **refresh token** becomes
/// the `spotter_session` cookie (HttpOnly, SameSite=Lax, Secure when configured). The database holds only its
/// SHA-256, like every token, it expires with the refresh token's lifetime, and signing out revokes its token
/// family, exactly as `POST /api/v1/auth/signout` does. The web never *rotates* that token: a page and several
/// `fetch` calls arrive at once, and rotation's reuse detection would read them as theft and end the login.
///
/// The realtime socket wants an **access token**, which JavaScript must hold. Each signed-in page gets a fresh
/// one of the same family, with the API's short access lifetime, rendered into a `data-` attribute: the
/// long-lived session stays out of script's reach, and a token copied out of a page dies within minutes.
/// Expired ones are swept by the maintenance job like any other.
struct WebSessions: Sendable {
    static let sessionCookie = "spotter_session"
    /// The signed-out CSRF secret (sign-in and sign-up forms); signed in, the token derives from the session.
    static let csrfCookie = "spotter_csrf"

    let accounts: AccountService
    let lifetimes: AccountService.Lifetimes
    let secureCookies: Bool

    /// The session a cookie names, or `nil` when it is unknown, used, revoked, expired, or its account suspended.
    func resolve(cookie: String) async throws -> AuthenticatedSession? {
        try await accounts.session(refreshToken: cookie)
    }

    /// A new short-lived access token of the session's login, for the page's realtime socket.
    func socketToken(for session: AuthenticatedSession) async throws -> String {
        try await accounts.issueAccessToken(for: session)
    }

    /// The CSRF token of a signed-in session: a hash of the secret cookie, so a page on another site, which
    /// can neither read the cookie nor this page, cannot know it.
    static func csrfToken(forSession cookie: String) -> String {
        Hex.encode(SHA256.hash(data: Data("spotter-csrf:\(cookie)".utf8)))
    }

    static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }

    /// Compares without an early exit, so timing tells nothing about how much of a guess was right.
    static func same(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    func sessionCookie(_ value: String) -> Cookie {
        Cookie(
            name: Self.sessionCookie, value: value, maxAge: Int(lifetimes.refreshToken), path: "/",
            secure: secureCookies, httpOnly: true, sameSite: .lax)
    }

    func clearedSessionCookie() -> Cookie {
        Cookie(
            name: Self.sessionCookie, value: "", maxAge: 0, path: "/", secure: secureCookies, httpOnly: true,
            sameSite: .lax)
    }

    func csrfCookie(_ value: String) -> Cookie {
        Cookie(
            name: Self.csrfCookie, value: value, path: "/", secure: secureCookies, httpOnly: true, sameSite: .lax)
    }
}

/// What the web middleware learned about a request, for handlers and templates.
struct WebRequestState: Sendable {
    /// The raw session cookie of a signed-in browser.
    var sessionCookie: String?
    /// The token forms and `fetch` calls must send back.
    var csrfToken = ""
    /// The form fields of a urlencoded or multipart POST, already read by the CSRF check.
    var form = WebForm(fields: [])
    /// The files of a multipart POST (its parts with a file name), in order; a photo form sends them.
    var files: [MultipartForm.Part] = []
    /// A multipart body that could not be read: its 400, for the handler that wanted its files.
    var malformedMultipart: String?
}
