import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/settings/security`: where a new-sign-in alert leads. It names this device and place as the alert would
/// (`SignInDevice`), lists the account's logins with when each began and was last active, and signs out one
/// or every other login.
///
/// Every login is named by what it signed in from (kept with the login since 2026-11-26); one from before
/// that reads as "an earlier sign-in". Addresses are personal: this page only ever lists the caller's own.
struct WebSecurityController {
    let accounts: AccountService
    let pages: WebPages
    let trustForwardedFor: Bool
    let clock: any WallClock

    struct SecurityView {
        let device: String
        let notice: String?
        let logins: [LoginView]
        let hasOthers: Bool
    }

    struct LoginView {
        let family: String
        let isThis: Bool
        /// "Chrome on Linux on this computer (127.0.0.1)", as the sign-in alert says it.
        let device: String
        let startedAt: String
        let startedLabel: String
        let activeAt: String
        let activeLabel: String
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("settings/security") { request, context in
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            let userAgent = request.headers[.userAgent]
            let address = request.clientAddress(context: context, trustForwardedFor: trustForwardedFor)
            let device = SignInDevice.describe(userAgent: userAgent, address: address)
            let ended = request.uri.queryParameters["ended"].flatMap { Int($0) }
            let notice = ended.map { $0 == 1 ? "Signed out of 1 other login." : "Signed out of \($0) other logins." }
            let now = clock.now
            let logins = try await accounts.logins(session).map { login in
                let isThis = login.family == session.token.family
                return LoginView(
                    family: login.family.uuidString.lowercased(), isThis: isThis,
                    device: Self.describe(login, orElse: isThis ? device : nil),
                    startedAt: WebFormat.iso(login.startedAt),
                    startedLabel: WebFormat.relative(login.startedAt, now: now),
                    activeAt: WebFormat.iso(login.lastActiveAt),
                    activeLabel: WebFormat.relative(login.lastActiveAt, now: now))
            }
            let view = SecurityView(
                device: device, notice: notice, logins: logins, hasOthers: logins.contains { !$0.isThis })
            return try await pages.page("security", title: "Security", content: view, context: context)
        }
        routes.post("settings/security/logins/:family/sign-out") { _, context in
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            guard let family = UUID(uuidString: try context.text("family")) else {
                throw SpotterError.notFound("No such login.")
            }
            try await accounts.signOut(login: family, session)
            return WebPages.redirect(to: "/settings/security?ended=1")
        }
        routes.post("settings/security/sign-out-others") { _, context in
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            let ended = try await accounts.signOutOthers(session)
            return WebPages.redirect(to: "/settings/security?ended=\(ended)")
        }
        return routes
    }

    /// What a login signed in from, or for one from before that was kept, this request's device when it is
    /// the caller's own login (it is this device), else a plain word that it is unknown.
    static func describe(_ login: LoginRecord, orElse current: String?) -> String {
        if login.userAgent == nil && login.address == nil {
            return current ?? "An earlier sign-in (device not recorded)"
        }
        return SignInDevice.describe(userAgent: login.userAgent, address: login.address)
    }
}
