import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/groups/<id>/members`: who is in a group. Admins also see the people asking to join (Approve, Deny),
/// Remove and Ban on the members below them, and who is banned (Unban); the owner makes and unmakes admins and
/// hands the group on.
///
/// Each button is a small form that posts and comes back here (POST/redirect/GET); `GroupService` decides.
struct WebGroupMembersController {
    let groups: GroupService
    let pages: WebPages
    let clock: any WallClock

    static let pageSize = 50

    struct MemberView {
        let userID: String
        let username: String
        let displayName: String
        let initials: String
        let avatarURL: String?
        let avatarSize = "small"
        let roleLabel: String?
        let isYou: Bool
        let mayRemove: Bool
        let mayMakeAdmin: Bool
        let mayMakeMember: Bool
        let mayTransfer: Bool
    }

    struct RequestView {
        let userID: String
        let username: String
        let displayName: String
        let initials: String
        let avatarURL: String?
        let avatarSize = "small"
        let askedLabel: String
    }

    struct MembersView {
        let group: GroupView
        let members: [MemberView]
        let requests: [RequestView]
        let hasRequests: Bool
        /// For admins: who is banned, each with Unban. `askedLabel` says when.
        let bans: [RequestView]
        let hasBans: Bool
        let nextHref: String?
        let notice: String?
        let onMembers = true
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("groups/:id/members") { request, context in
            let id: GroupID = try context.webID("id")
            let query = request.uri.queryParameters
            return try await members(
                id, after: query["after"].flatMap { UserID(String($0)) },
                notice: query["done"].flatMap { Self.notices[String($0)] }, context: context)
        }
        for (action, approve) in [("approve", true), ("deny", false)] {
            routes.post("groups/:id/requests/:user/\(action)") { _, context in
                let id: GroupID = try context.webID("id")
                try await groups.answerRequest(
                    id, from: try context.webID("user"), approve: approve, by: try context.requireWebViewer())
                return WebPages.redirect(to: "/groups/\(id)/members?done=\(action)d")
            }
        }
        for (action, ban) in [("remove", false), ("ban", true)] {
            routes.post("groups/:id/members/:user/\(action)") { _, context in
                let id: GroupID = try context.webID("id")
                try await groups.remove(id, try context.webID("user"), ban: ban, by: try context.requireWebViewer())
                return WebPages.redirect(to: "/groups/\(id)/members?done=\(ban ? "banned" : "removed")")
            }
        }
        routes.post("groups/:id/bans/:user/unban") { _, context in
            let id: GroupID = try context.webID("id")
            try await groups.unban(id, try context.webID("user"), by: try context.requireWebViewer())
            return WebPages.redirect(to: "/groups/\(id)/members?done=unbanned")
        }
        routes.post("groups/:id/members/:user/role") { _, context in
            let id: GroupID = try context.webID("id")
            guard let role = context.web.form["role"].flatMap(GroupRole.init(rawValue:)) else {
                throw SpotterError.invalid("role", "must be admin or member")
            }
            try await groups.setRole(id, of: try context.webID("user"), to: role, by: try context.requireWebViewer())
            return WebPages.redirect(to: "/groups/\(id)/members?done=role")
        }
        routes.post("groups/:id/members/:user/transfer") { _, context in
            let id: GroupID = try context.webID("id")
            _ = try await groups.transfer(id, to: try context.webID("user"), by: try context.requireWebViewer())
            return WebPages.redirect(to: "/groups/\(id)/members?done=transferred")
        }
        return routes
    }

    static let notices = [
        "approved": "They are in.",
        "denied": "The request is turned down.",
        "removed": "They are removed from the group.",
        "banned": "They are removed and can't join again.",
        "unbanned": "The ban is lifted: they may join again as anyone may.",
        "role": "Their role is changed.",
        "transferred": "The group is theirs now; you stay as an admin.",
    ]

    private func members(
        _ id: GroupID, after: UserID?, notice: String?, context: AppRequestContext
    ) async throws -> Response {
        let viewer = context.viewer
        let found = try await groups.get(id, viewer: viewer)
        let group = GroupView(found, viewer: viewer)
        var people = try await groups.members(id, viewer: viewer, after: after, limit: Self.pageSize + 1)
        let more = people.count > Self.pageSize
        people = Array(people.prefix(Self.pageSize))
        let role = found.standing.role
        let members = people.map { member in
            let isYou = member.person.id == viewer?.id
            let target = Self.standing(member.role)
            // Each button is offered to exactly whom `GroupPolicy` lets use it (the list holds active accounts only).
            func mayGive(_ given: GroupRole) -> Bool {
                member.role != given
                    && GroupPolicy.refusal(giving: given, to: target, by: found.standing, access: found.access) == nil
            }
            return MemberView(
                userID: member.person.id.description, username: member.person.username,
                displayName: member.person.displayName, initials: ViewerView.initials(of: member.person.displayName),
                avatarURL: member.person.avatarURL, roleLabel: Self.label(member.role), isYou: isYou,
                mayRemove: !isYou && role.map { GroupPolicy.mayRemove(target, by: $0) } == true,
                mayMakeAdmin: mayGive(.admin), mayMakeMember: mayGive(.member),
                mayTransfer: GroupPolicy.refusal(
                    transferringTo: target, targetSuspended: false, by: found.standing, access: found.access) == nil)
        }
        let requests = group.isAdmin ? try await groups.requests(id, by: try context.requireWebViewer()) : []
        let bans = group.isAdmin ? try await groups.bans(id, by: try context.requireWebViewer()) : []
        let now = clock.now
        let timeZone = WebDisplay(viewer: viewer).timeZone
        func row(_ person: AuthorSummary, _ at: Date) -> RequestView {
            RequestView(
                userID: person.id.description, username: person.username, displayName: person.displayName,
                initials: ViewerView.initials(of: person.displayName), avatarURL: person.avatarURL,
                askedLabel: WebFormat.relative(at, now: now, timeZone: timeZone))
        }
        let view = MembersView(
            group: group, members: members,
            requests: requests.map { row($0.person, $0.requestedAt) }, hasRequests: !requests.isEmpty,
            bans: bans.map { row($0.person, $0.bannedAt) }, hasBans: !bans.isEmpty,
            nextHref: more ? people.last.map { "/groups/\(id)/members?after=\($0.person.id)" } : nil, notice: notice)
        return try await pages.page(
            "group_members", title: "Members of \(found.name)", content: view, context: context, nav: .groups)
    }

    /// A member's standing, from their role.
    static func standing(_ role: GroupRole) -> GroupStanding {
        switch role {
        case .owner: .owner
        case .admin: .admin
        case .member: .member
        }
    }

    static func label(_ role: GroupRole) -> String? {
        switch role {
        case .owner: "Owner"
        case .admin: "Admin"
        case .member: nil
        }
    }
}
