import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/groups/join/<code>`: the page an invitation link opens. It shows the group the link leads to (even a
/// private one: the code is the proof of invitation) with a Join button; signed out, it offers signing in or
/// up first, each coming back here.
struct WebGroupJoinController {
    let groups: GroupService
    let pages: WebPages

    struct JoinView {
        let group: GroupView
        let code: String
        let signedOut: Bool
        let signinHref: String
        let signupHref: String
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("groups/join/:code") { request, context in
            let code = try context.text("code")
            let group = try await groups.preview(code: code, viewer: context.viewer)
            let signin = ReturnTo.signinPath(returningTo: request)
            let view = JoinView(
                group: GroupView(group, viewer: context.viewer), code: code, signedOut: context.viewer == nil,
                signinHref: signin, signupHref: "/signup" + signin.dropFirst("/signin".count))
            return try await pages.page(
                "group_join", title: "Join \(group.name)", content: view, context: context, nav: .groups)
        }
        routes.post("groups/join/:code") { _, context in
            let group = try await groups.join(code: try context.text("code"), by: try context.requireWebViewer())
            return WebPages.redirect(to: "/groups/\(group.id)?done=joined")
        }
        return routes
    }
}
