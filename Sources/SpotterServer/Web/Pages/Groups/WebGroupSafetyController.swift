import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/groups/<id>/safety`: an encrypted group's members, each with a safety number the page's script computes
/// from their verified device chain (`e2e-safety.js`), to compare in person. The server sends only who the
/// members are: a number it computed would prove nothing.
struct WebGroupSafetyController {
    let groups: GroupService
    let pages: WebPages

    struct PageView {
        let group: GroupView
        let members: [Member]
    }

    struct Member {
        let id: String
        let name: String
        let username: String
        let isYou: Bool
    }

    /// Families and clubs, not crowds: a page lists this many, the first by join order.
    static let limit = 200

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("groups/:id/safety") { _, context in
            let id: GroupID = try context.webID("id")
            let viewer = try context.requireWebViewer()
            let group = GroupView(try await groups.get(id, viewer: viewer), viewer: viewer)
            guard group.isMember, group.encrypted else {
                throw SpotterError.notFound("Safety numbers are for members of an encrypted group.")
            }
            let members = try await groups.members(id, viewer: viewer, after: nil, limit: Self.limit).map {
                Member(
                    id: $0.person.id.description, name: $0.person.displayName, username: $0.person.username,
                    isYou: $0.person.id == viewer.id)
            }
            return try await pages.page(
                "group_safety", title: "Safety numbers · \(group.name)",
                content: PageView(group: group, members: members), context: context, nav: .groups)
        }
        return routes
    }
}
