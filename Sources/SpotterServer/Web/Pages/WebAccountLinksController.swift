import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/forgot-password`, `/reset-password`, `/confirm-email`: the pages a mailed link leads to.
///
/// A link's token arrives in the query (`?token=`), which the access log never writes; the page puts it in
/// a form, and only the form's POST uses it, so a mail scanner that fetches links spends nothing.
struct WebAccountLinksController {
    let links: AccountLinkService
    let pages: WebPages
    let trustForwardedFor: Bool

    struct ForgotView {
        let email: String
        let canSendMail: Bool
        let sent: Bool
        let errors: [String]
        let hasErrors: Bool
        let emailError: String?

        init(email: String, canSendMail: Bool, sent: Bool, problems: FormProblems? = nil) {
            self.email = email
            self.canSendMail = canSendMail
            self.sent = sent
            errors = problems?.messages ?? []
            hasErrors = !errors.isEmpty
            emailError = problems?.fields["email"]
        }
    }

    /// A link's page: its token in the form; a refusal of the link itself (spent, expired) above it, and of
    /// the new password under that input.
    struct TokenView {
        let token: String
        let errors: [String]
        let hasErrors: Bool
        let passwordError: String?

        init(token: String, problems: FormProblems? = nil) {
            self.token = token
            errors = problems?.messages ?? []
            hasErrors = !errors.isEmpty
            passwordError = problems?.fields["password"]
        }
    }

    /// The inputs a person sees on these pages (the token is a hidden field: its refusal goes above the form).
    static let inputs = ["email": "The email", "password": "The password"]

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("forgot-password") { _, context in
            try await forgot(ForgotView(email: "", canSendMail: links.canSendMail, sent: false), context)
        }
        routes.post("forgot-password") { request, context in
            let email = context.web.form["email"] ?? ""
            do {
                let address = request.clientAddress(context: context, trustForwardedFor: trustForwardedFor)
                try await links.requestPasswordReset(PasswordResetRequest(email: email), clientAddress: address)
                // The same page whether or not the address has an account.
                return try await forgot(ForgotView(email: email, canSendMail: true, sent: true), context)
            } catch {
                guard let problems = FormProblems(error, inputs: Self.inputs) else { throw error }
                var response = try await forgot(
                    ForgotView(email: email, canSendMail: links.canSendMail, sent: false, problems: problems), context)
                response.status = problems.status
                return response
            }
        }
        routes.get("reset-password") { request, context in
            let token = request.uri.queryParameters["token"].map(String.init) ?? ""
            return try await page("reset_password", "Choose a new password", token: token, context)
        }
        routes.post("reset-password") { _, context in
            let form = context.web.form
            let token = form["token"] ?? ""
            do {
                try await links.resetPassword(
                    PasswordResetConfirmation(token: token, password: form.all("password").first ?? ""))
                // Every login ended, this browser's too: sign in afresh with the new password.
                var response = WebPages.redirect(to: "/signin?reset=1")
                if context.identity != nil { response.setCookie(pages.sessions.clearedSessionCookie()) }
                return response
            } catch {
                guard let problems = FormProblems(error, inputs: Self.inputs) else { throw error }
                var response = try await page(
                    "reset_password", "Choose a new password", token: token, problems: problems, context)
                response.status = problems.status
                return response
            }
        }
        routes.get("confirm-email") { request, context in
            let token = request.uri.queryParameters["token"].map(String.init) ?? ""
            return try await page("confirm_email", "Confirm your new email", token: token, context)
        }
        routes.post("confirm-email") { _, context in
            let token = context.web.form["token"] ?? ""
            do {
                try await links.confirmEmailChange(EmailChangeConfirmation(token: token))
                return WebPages.redirect(
                    to: context.identity == nil ? "/signin?email=1" : "/settings?saved=email-confirmed")
            } catch {
                guard let problems = FormProblems(error, inputs: Self.inputs) else { throw error }
                var response = try await page(
                    "confirm_email", "Confirm your new email", token: token, problems: problems, context)
                response.status = problems.status
                return response
            }
        }
        return routes
    }

    private func forgot(_ view: ForgotView, _ context: AppRequestContext) async throws -> Response {
        try await pages.page("forgot_password", title: "Forgot your password?", content: view, context: context)
    }

    private func page(
        _ template: String, _ title: String, token: String, problems: FormProblems? = nil,
        _ context: AppRequestContext
    ) async throws -> Response {
        try await pages.page(
            template, title: title, content: TokenView(token: token, problems: problems), context: context)
    }
}
