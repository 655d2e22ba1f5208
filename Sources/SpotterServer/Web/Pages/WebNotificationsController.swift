import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/notifications`: the inbox. Opening it marks everything seen; "Mark all read" clears the badge.
struct WebNotificationsController {
    let notifications: NotificationService
    let pages: WebPages
    let clock: any WallClock

    struct InboxView {
        let items: [ItemView]
        let isEmpty: Bool
        let nextHref: String?
    }

    struct ItemView {
        let text: String
        let href: String
        let unread: Bool
        let createdAt: String
        let createdLabel: String
        let actorInitials: String
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("notifications") { request, context in
            let viewer = try context.requireWebViewer()
            let cursor = request.uri.queryParameters["cursor"].map(String.init)
            let page = try await notifications.inbox(
                viewer, page: try PageRequest(limit: nil, cursor: cursor, since: nil))
            _ = try await notifications.markSeen(viewer, upTo: nil)
            let now = clock.now
            let items = page.items.map { group in
                ItemView(
                    text: group.text, href: group.postID.map { "/posts/\($0)" } ?? "/notifications",
                    unread: group.unread, createdAt: WebFormat.iso(group.latestAt),
                    createdLabel: WebFormat.relative(group.latestAt, now: now),
                    actorInitials: ViewerView.initials(of: group.sampleActors.first?.displayName ?? "Spotter"))
            }
            let view = InboxView(
                items: items, isEmpty: items.isEmpty,
                nextHref: page.nextCursor.map { "/notifications?cursor=\($0)" })
            return try await pages.page(
                "notifications", title: "Notifications", content: view, context: context, nav: .notifications)
        }
        routes.post("notifications/read") { _, context in
            _ = try await notifications.markRead(try context.requireWebViewer(), upTo: nil)
            return WebPages.redirect(to: "/notifications")
        }
        return routes
    }
}
