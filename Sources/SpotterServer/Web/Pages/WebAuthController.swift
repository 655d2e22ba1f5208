import Foundation
import Hummingbird
import NIOCore
import SpotterCore
import SpotterModels

/// `/signin`, `/signup`, `/signout`: the browser's way through `AccountService`.
struct WebAuthController {
    let accounts: AccountService
    let sessions: WebSessions
    let pages: WebPages
    let trustForwardedFor: Bool
    /// The URL a NIP-98 event for the "Sign in with Nostr" button must name (see `WebNostrController`).
    let nostrSignInURL: String

    struct FormView {
        let login: String
        let email: String
        let username: String
        /// What concerns no one field (a wrong password at sign-in, a limit reached), above the form.
        let errors: [String]
        let hasErrors: Bool
        /// Each field's problem, under its input (`FormProblems`).
        let loginError: String?
        let usernameError: String?
        let emailError: String?
        let passwordError: String?
        /// Where sign-in leads, when it isn't the feed: a local path only (see `ReturnTo`).
        let returnTo: String?
        /// `?return_to=…` for the links between sign-in and sign-up, so either leads back to the same page.
        let returnQuery: String
        /// A line above the form: the password was reset, or the new email confirmed.
        let notice: String?
        /// What the sign-in page's "Sign in with Nostr" button signs for; the button shows only where a NIP-07
        /// extension is there.
        var nostrSignInURL: String?

        init(
            login: String = "", email: String = "", username: String = "", problems: FormProblems? = nil,
            returnTo: String? = nil, notice: String? = nil
        ) {
            self.login = login
            self.email = email
            self.username = username
            errors = problems?.messages ?? []
            hasErrors = !errors.isEmpty
            loginError = problems?.fields["login"]
            usernameError = problems?.fields["username"]
            emailError = problems?.fields["email"]
            passwordError = problems?.fields["password"]
            self.returnTo = returnTo
            let unreserved = CharacterSet(
                charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/")
            returnQuery =
                returnTo.map { "?return_to=" + ($0.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "") }
                ?? ""
            self.notice = notice
        }
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("signin") { request, context in
            let query = request.uri.queryParameters
            let returnTo = ReturnTo.localPath(query["return_to"].map(String.init))
            if context.identity != nil { return WebPages.redirect(to: returnTo ?? "/") }
            let notice =
                query["reset"] != nil
                ? "Your password is changed and every device was signed out. Sign in with the new password."
                : query["email"] != nil ? "Your new email is confirmed. Sign in to go on." : nil
            var form = FormView(returnTo: returnTo, notice: notice)
            form.nostrSignInURL = nostrSignInURL
            return try await pages.page("signin", title: "Sign in", content: form, context: context)
        }
        routes.post("signin") { request, context in
            let form = context.web.form
            let login = form["login"] ?? ""
            let returnTo = ReturnTo.localPath(form["return_to"])
            do {
                let tokens = try await accounts.signin(
                    SigninRequest(login: login, password: form.all("password").first ?? ""),
                    clientAddress: request.clientAddress(context: context, trustForwardedFor: trustForwardedFor),
                    device: request.headers[.userAgent])
                return signedIn(tokens, to: returnTo ?? "/")
            } catch {
                guard let problems = FormProblems(error, inputs: Self.signinInputs) else { throw error }
                var form = FormView(login: login, problems: problems, returnTo: returnTo)
                form.nostrSignInURL = nostrSignInURL
                return try await pages.page(
                    "signin", title: "Sign in", content: form, context: context, status: problems.status)
            }
        }
        routes.get("signup") { request, context in
            // An invitation link sends people here to make an account first, and back to it after.
            let returnTo = ReturnTo.localPath(request.uri.queryParameters["return_to"].map(String.init))
            if context.identity != nil { return WebPages.redirect(to: returnTo ?? "/") }
            return try await pages.page(
                "signup", title: "Join Spotter", content: FormView(returnTo: returnTo), context: context)
        }
        routes.post("signup") { request, context in
            let form = context.web.form
            let email = form["email"] ?? ""
            let username = form["username"] ?? ""
            let returnTo = ReturnTo.localPath(form["return_to"])
            do {
                let tokens = try await accounts.signup(
                    SignupRequest(email: email, username: username, password: form.all("password").first ?? ""),
                    device: request.headers[.userAgent],
                    clientAddress: request.clientAddress(context: context, trustForwardedFor: trustForwardedFor))
                try await adoptBrowserTimeZone(form["time_zone"], tokens)
                var response = signedIn(tokens)
                // A first-run page suggests people to follow, unless the person came for a page of their own.
                response.headers[.location] = returnTo ?? "/welcome"
                return response
            } catch {
                guard let problems = FormProblems(error, inputs: Self.signupInputs) else { throw error }
                return try await pages.page(
                    "signup", title: "Join Spotter",
                    content: FormView(email: email, username: username, problems: problems, returnTo: returnTo),
                    context: context,
                    status: problems.status)
            }
        }
        routes.post("signout") { _, context in
            if let session = context.identity { try await accounts.signout(session) }
            var response = WebPages.redirect(to: "/signin")
            response.setCookie(sessions.clearedSessionCookie())
            return response
        }
        // A fresh socket token for a page that has been open longer than its first one lives.
        routes.get("session/socket-token") { _, context in
            guard let session = context.identity else { throw SpotterError.forbidden("Not signed in.") }
            let body = try JSONCoding.encoder.encode(["token": try await sessions.socketToken(for: session)])
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        return routes
    }

    /// The inputs of the sign-in and sign-up forms, as a sentence names them.
    static let signinInputs = ["login": "The username or email", "password": "The password"]
    static let signupInputs = ["username": "The username", "email": "The email", "password": "The password"]

    /// A new account starts in the browser's time zone (the sign-up page's script fills it in) rather than UTC;
    /// a zone that isn't one is left out, never an error on sign-up.
    private func adoptBrowserTimeZone(_ zone: String?, _ tokens: TokenResponse) async throws {
        guard let zone, AccountRules.isTimeZone(zone),
            let session = try await accounts.session(refreshToken: tokens.refreshToken)
        else { return }
        _ = try await accounts.update(session, with: UpdateAccountRequest(timeZone: zone))
    }

    /// The login's refresh token becomes the session cookie (see `WebSessions`); the access token is dropped.
    private func signedIn(_ tokens: TokenResponse, to location: String = "/") -> Response {
        var response = WebPages.redirect(to: location)
        response.setCookie(sessions.sessionCookie(tokens.refreshToken))
        return response
    }
}
