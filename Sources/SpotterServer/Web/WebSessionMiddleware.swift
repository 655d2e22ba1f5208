import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SpotterCore

/// Wraps every web page and form: reads the session cookie, checks CSRF on writes, and adds the security
/// headers browsers act on.
///
/// A write (any method but GET/HEAD) must carry the page's CSRF token, as the form field `_csrf` or, from
/// JavaScript, the `X-CSRF-Token` header; without it the answer is 403 and nothing runs. Signed in, the token
/// derives from the session cookie; signed out (the sign-in and sign-up forms), it is a random `spotter_csrf`
/// cookie echoed in the form (double submit), so a login can't be forced from another site either.
struct WebSessionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let sessions: WebSessions
    let pages: WebPages
    let storage: any SpotterStorage

    /// No script but our own files, no framing, no plugins; `connect-src 'self'` covers the WebSocket, which
    /// browsers treat as same-origin for `ws:`/`wss:` on the page's host. `img-src blob:` is for an encrypted
    /// group's photos, which the page's own script decrypts into object URLs (only a page's script makes those).
    /// `worker-src 'self'` is the Web Push service worker, `/sw.js` (`WebAssets`): said outright rather than left
    /// to fall back on `script-src`.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
        + "worker-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        var context = context
        var request = request
        var newCSRFCookie: String?
        let sessionCookie = request.cookies[WebSessions.sessionCookie]?.value
        let session = try await sessionCookie.asyncMap { try await sessions.resolve(cookie: $0) } ?? nil
        if let cookie = sessionCookie, let session {
            context.identity = session
            context.web.sessionCookie = cookie
            context.web.csrfToken = WebSessions.csrfToken(forSession: cookie)
        } else if let secret = request.cookies[WebSessions.csrfCookie]?.value, secret.count >= 16 {
            context.web.csrfToken = secret
        } else {
            let secret = WebSessions.randomSecret()
            newCSRFCookie = secret
            context.web.csrfToken = secret
        }

        var response: Response
        if request.method == .get || request.method == .head {
            response = await run(next, request, context)
        } else {
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            let form = Self.readForm(body, contentType: request.headers[.contentType], into: &context.web)
            let sent = request.headers[HTTPField.Name("X-CSRF-Token")!] ?? form["_csrf"] ?? ""
            if newCSRFCookie == nil, WebSessions.same(sent, context.web.csrfToken) {
                response = await run(next, request, context)
            } else {
                response = pages.error(
                    status: .forbidden, title: "This form has expired",
                    detail: "The page was open too long or came from another site. Go back, reload and try again.",
                    context: context)
            }
        }
        if let newCSRFCookie { response.setCookie(sessions.csrfCookie(newCSRFCookie)) }
        // A session that ended elsewhere (signed out in another tab, expired): stop sending it.
        if sessionCookie != nil, session == nil,
            !response.headers[values: .setCookie].contains(where: { $0.hasPrefix(WebSessions.sessionCookie + "=") })
        {
            response.setCookie(sessions.clearedSessionCookie())
        }
        Self.addSecurityHeaders(to: &response.headers)
        return response
    }

    /// Runs the handler; what it throws becomes a page: a trip to sign in for 401, else an error page that
    /// says what went wrong in words (and keeps a 500's detail in the log). A form's handler runs in a
    /// savepoint of the request's unit (`UnitOfWorkMiddleware`): one that throws changes nothing, although
    /// its error page is an answer, not an error, to the unit around it.
    private func run(
        _ next: (Request, Context) async throws -> Response, _ request: Request, _ context: Context
    ) async -> Response {
        do {
            guard UnitOfWorkMiddleware<Context>.changes(request.method) else { return try await next(request, context) }
            return try await storage.write { try await next(request, context) }
        } catch {
            guard let (status, messages) = WebErrors.explain(error) else {
                context.logger.error("web page failed", metadata: ["error": "\(String(reflecting: error))"])
                return pages.error(
                    status: .internalServerError, title: "Something went wrong",
                    detail: "Something went wrong on our side. Try again in a moment.", context: context)
            }
            if status == .unauthorized { return WebPages.redirect(to: ReturnTo.signinPath(returningTo: request)) }
            let title = WebErrors.title(for: status)
            return pages.error(status: status, title: title, detail: messages.joined(separator: " "), context: context)
        }
    }

    /// The fields of a urlencoded or `multipart/form-data` body (a photo form); a multipart body's files go to
    /// `state.files`. A multipart body that can't be read gives no fields, so its CSRF field is missing too.
    static func readForm(_ body: ByteBuffer, contentType: String?, into state: inout WebRequestState) -> WebForm {
        guard let contentType, let boundary = MultipartForm.boundary(of: contentType) else {
            state.form = WebForm(urlEncoded: String(buffer: body))
            return state.form
        }
        do {
            let multipart = try MultipartForm(body: Data(buffer: body), boundary: boundary)
            state.form = WebForm(
                fields: multipart.parts.filter { $0.filename == nil }.map {
                    ($0.name, String(decoding: $0.data, as: UTF8.self))
                })
            state.files = multipart.parts.filter { $0.filename != nil }
        } catch {
            state.malformedMultipart = "\(error)"
        }
        return state.form
    }

    static func addSecurityHeaders(to headers: inout HTTPFields) {
        headers[HTTPField.Name("Content-Security-Policy")!] = contentSecurityPolicy
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        if headers[.cacheControl] == nil { headers[.cacheControl] = "no-store" }
    }
}
