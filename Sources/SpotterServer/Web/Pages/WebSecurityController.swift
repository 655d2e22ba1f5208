import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/settings/security`: where a new-sign-in alert leads. It names this device and place as the alert would
/// (`SignInDevice`), and signs out every other login at once.
///
/// Logins are not stored with their device, so the page cannot yet list them one by one; "sign out
/// everywhere else" is what a person who doesn't recognise an alert needs first.
struct WebSecurityController {
    let accounts: AccountService
    let pages: WebPages
    let trustForwardedFor: Bool

    struct SecurityView {
        let device: String
        let notice: String?
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("settings/security") { request, context in
            _ = try context.requireWebViewer()
            let device = SignInDevice.describe(
                userAgent: request.headers[.userAgent],
                address: request.clientAddress(context: context, trustForwardedFor: trustForwardedFor))
            let ended = request.uri.queryParameters["ended"].flatMap { Int($0) }
            let notice = ended.map { $0 == 1 ? "Signed out of 1 other login." : "Signed out of \($0) other logins." }
            return try await pages.page(
                "security", title: "Security", content: SecurityView(device: device, notice: notice), context: context)
        }
        routes.post("settings/security/sign-out-others") { _, context in
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            let ended = try await accounts.signOutOthers(session)
            return WebPages.redirect(to: "/settings/security?ended=\(ended)")
        }
        return routes
    }
}
