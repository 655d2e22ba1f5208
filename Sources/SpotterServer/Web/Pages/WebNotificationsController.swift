import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/notifications`: the inbox. Opening it marks everything seen, which clears the badge; opening one
/// notification marks its group read and goes to what it is about. A follow request carries its Approve
/// and Deny buttons.
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
        let actorAvatarURL: String?
        /// A follow request's asker, for the inline Approve and Deny.
        let requester: Requester?
    }

    struct Requester {
        let username: String
        let displayName: String
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
            let timeZone = WebDisplay(viewer: viewer).timeZone
            let items = page.items.map { group in
                let first = group.sampleActors.first
                return ItemView(
                    text: group.text, href: Self.openHref(group.groupKey), unread: group.unread,
                    createdAt: WebFormat.iso(group.latestAt),
                    createdLabel: WebFormat.relative(group.latestAt, now: now, timeZone: timeZone),
                    actorInitials: ViewerView.initials(of: first?.displayName ?? "Spotter"),
                    actorAvatarURL: first?.avatarURL,
                    requester: group.type == .followRequest
                        ? first.map { Requester(username: $0.username, displayName: $0.displayName) } : nil)
            }
            let view = InboxView(
                items: items, isEmpty: items.isEmpty,
                nextHref: page.nextCursor.map { "/notifications?cursor=\($0)" })
            return try await pages.page(
                "notifications", title: "Notifications", content: view, context: context, nav: .notifications)
        }
        routes.get("notifications/groups/:key") { _, context in
            let viewer = try context.requireWebViewer()
            guard let opened = try await notifications.open(viewer, groupKey: try context.text("key")) else {
                return WebPages.redirect(to: "/notifications")
            }
            return WebPages.redirect(
                to: Self.target(of: opened.latest, actors: opened.actors, total: opened.total, viewer: viewer))
        }
        routes.post("notifications/read") { _, context in
            _ = try await notifications.markRead(try context.requireWebViewer(), upTo: nil)
            return WebPages.redirect(to: "/notifications")
        }
        return routes
    }

    static func openHref(_ groupKey: String) -> String {
        "/notifications/groups/\(groupKey.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? groupKey)"
    }

    /// The page a notification is about: the person who followed (or everyone, when several did) or approved
    /// a request, the requests page, the post (at the comment, for comments, replies and mentions), the group
    /// (an encrypted group's page is where an admin's device shares its keys), the invitations to look after
    /// a child, or the security page.
    static func target(
        of latest: NotificationRecord, actors: [AuthorSummary], total: Int, viewer: AccountRecord
    ) -> String {
        let post = latest.postID.map { "/posts/\($0)" }
        switch latest.type {
        case .follow:
            if total == 1, let actor = actors.first { return "/u/\(actor.username)" }
            return "/u/\(viewer.username)/followers"
        case .followRequest: return "/follow-requests"
        case .followRequestApproved: return actors.first.map { "/u/\($0.username)" } ?? "/notifications"
        case .kudos, .personalRecord: return post ?? "/notifications"
        case .comment, .reply, .mention:
            guard let post else { return "/notifications" }
            return latest.commentID.map { "\(post)#comment-\($0)" } ?? post
        case .securityNewDevice, .securityPasswordChanged, .securityEmailChanged: return "/settings/security"
        case .streakAtRisk: return "/compose"
        case .weeklySummary: return "/u/\(viewer.username)"
        case .groupPost: return post ?? "/groups"
        case .groupInvitation, .groupRequestAccepted, .groupAwaitingKeys:
            return group(in: latest.groupKey).map { "/groups/\($0)" } ?? "/groups"
        case .groupJoinRequest: return group(in: latest.groupKey).map { "/groups/\($0)/members" } ?? "/groups"
        case .groupRemoved, .groupBanned: return "/groups"
        case .guardianInvitation: return "/settings/children#child-invitations"
        }
    }

    /// The group a group notification's key names (`group-…-<id>`).
    private static func group(in groupKey: String) -> GroupID? { GroupID(String(groupKey.suffix(36))) }
}
