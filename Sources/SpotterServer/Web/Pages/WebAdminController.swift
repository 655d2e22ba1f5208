import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/admin`: where an admin helps someone back into their account on a server that cannot mail. Find a person
/// by username, make them a single-use password-reset link (shown once, for the admin to pass on), or set
/// their email. The rules, and who counts as an admin, are `AccountLinkService`'s and `AdminAuthority`'s: the
/// same as `spotter admin reset-password` and `spotter admin set-email` follow.
struct WebAdminController {
    let links: AccountLinkService
    let pages: WebPages

    struct AdminView {
        /// The username typed into the search.
        let query: String
        /// Why no one was found.
        let notFound: String?
        let person: PersonView?
        let saved: String?
        let errors: [String]
        let hasErrors: Bool
    }

    struct PersonView {
        let username: String
        let displayName: String
        let email: String?
        let suspended: Bool
        /// A reset link made just now: shown on this answer only.
        let link: String?
        let linkExpires: String?
        /// The address typed into the email form, kept when it comes back with an error.
        let newEmail: String
        let emailError: String?
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("admin") { request, context in
            let viewer = try context.requireWebViewer()
            try AdminAuthority.account(viewer).check()
            let query = request.uri.queryParameters["username"].map(String.init) ?? ""
            guard !query.isEmpty else { return try await page(AdminView.empty, context) }
            let saved = request.uri.queryParameters["saved"] == "email" ? "The email is set." : nil
            do {
                let account = try await links.account(query, by: .account(viewer))
                return try await page(.init(query: query, person: PersonView(account), saved: saved), context)
            } catch SpotterError.notFound(let detail) {
                return try await page(.init(query: query, notFound: detail), context, status: .notFound)
            }
        }
        routes.post("admin/people/:username/reset-link") { _, context in
            let viewer = try context.requireWebViewer()
            let handed = try await links.passwordResetLink(for: try context.text("username"), by: .account(viewer))
            let person = PersonView(
                handed.account, link: handed.link,
                linkExpires: Self.time(handed.expiresAt, in: viewer.profile.timeZone))
            var response = try await page(.init(query: handed.account.username, person: person), context)
            // The link is a password: no cache keeps the page that shows it.
            response.headers[.cacheControl] = "no-store"
            return response
        }
        routes.post("admin/people/:username/email") { _, context in
            let viewer = try context.requireWebViewer()
            let username = try context.text("username")
            let email = context.web.form["email"] ?? ""
            do {
                let account = try await links.setEmail(of: username, to: email, by: .account(viewer))
                return WebPages.redirect(to: "/admin?username=\(account.username)&saved=email")
            } catch {
                guard let problems = FormProblems(error, inputs: ["email": "The email"]) else { throw error }
                let account = try await links.account(username, by: .account(viewer))
                let person = PersonView(account, newEmail: email, emailError: problems.fields["email"])
                return try await page(
                    .init(query: account.username, person: person, errors: problems.messages), context,
                    status: problems.status)
            }
        }
        return routes
    }

    private func page(
        _ view: AdminView, _ context: AppRequestContext, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        try await pages.page("admin", title: "Admin", content: view, context: context, status: status)
    }

    /// "14:05 (Europe/Berlin)": when a link stops working, on the admin's clock.
    static func time(_ date: Date, in zone: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone) ?? .gmt
        formatter.dateFormat = "HH:mm"
        let name = formatter.timeZone.identifier.replacingOccurrences(of: "_", with: " ")
        return "\(formatter.string(from: date)) (\(name))"
    }
}

extension WebAdminController.AdminView {
    static let empty = Self(query: "")

    init(
        query: String, notFound: String? = nil, person: WebAdminController.PersonView? = nil, saved: String? = nil,
        errors: [String] = []
    ) {
        self.query = query
        self.notFound = notFound
        self.person = person
        self.saved = saved
        self.errors = errors
        hasErrors = !errors.isEmpty
    }
}

extension WebAdminController.PersonView {
    init(
        _ account: AccountRecord, link: String? = nil, linkExpires: String? = nil, newEmail: String = "",
        emailError: String? = nil
    ) {
        username = account.username
        displayName = account.displayName
        email = account.email
        suspended = account.suspendedAt != nil
        self.link = link
        self.linkExpires = linkExpires
        self.newEmail = newEmail
        self.emailError = emailError
    }
}
