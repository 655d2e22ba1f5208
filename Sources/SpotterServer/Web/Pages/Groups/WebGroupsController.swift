import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/groups` (my groups and discovery), `/groups/new`, and a group's page `/groups/<id>`: its about, its posts
/// (live on the `group:<id>` topic) and the Join, Ask to join or Leave its viewer may use.
///
/// Every rule is `GroupService`'s, as for the API: a group someone may not see is the 404 page, an action they
/// may not take the 403 page with its reason.
struct WebGroupsController {
    let groups: GroupService
    let feeds: FeedService
    /// The children a member manages, whom an encrypted group's post may be for.
    let children: ChildProfileService
    let pages: WebPages
    let clock: any WallClock

    struct ListView {
        let signedIn: Bool
        let mine: [GroupView]
        let hasMine: Bool
        let invitations: [GroupView]
        let hasInvitations: Bool
        /// Groups I asked to join, waiting for an admin.
        let requests: [GroupView]
        let hasRequests: Bool
        let query: String
        /// The query when there is one, for "No groups found for …".
        let searched: String?
        let found: [GroupView]
        let nothingFound: Bool
        let notice: String?
    }

    struct NewView {
        let form: GroupFormView
        /// "Encrypted" as ticked (a refused form keeps it).
        let encrypted: Bool
    }

    struct PageView {
        let group: GroupView
        let posts: [PostView]
        let isEmpty: Bool
        let nextHref: String?
        let liveTopic: String?
        /// Newest first, new posts go on top as they come; in the top order they are announced instead.
        let insertsLive: Bool
        let orders: [WebFeedController.TabView]
        let signedOut: Bool
        /// Where "Sign in to join" returns to.
        let signinHref: String
        /// Whether the membership card has anything to show (the owner's may have nothing).
        let hasActions: Bool
        let notice: String?
        let onPosts = true
        /// In an encrypted group, for a member: the children they manage, for the sealed composer's "For".
        let sealedChildren: [ChildChoice]
        let hasSealedChildren: Bool
        /// In an encrypted group: who the server counts as members, for an admin's device to reconcile the
        /// group's chain with (space-separated user ids).
        let memberIDs: String
        /// Of those, the ones the server made admins (or owner): added to the chain as admins.
        let adminIDs: String
        /// The newest post, when the member has posts new to them here: the page's seen form marks the group seen
        /// up to it (`POST /groups/<id>/seen`).
        let seenUpTo: String?
    }

    struct ChildChoice {
        let id: String
        let name: String
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("groups") { request, context in
            let query = request.uri.queryParameters
            return try await list(
                query: query["q"].map(String.init) ?? "", notice: query["done"].flatMap { Self.notices[String($0)] },
                context: context)
        }
        routes.get("groups/new") { _, context in
            let viewer = try context.requireWebViewer()
            return try await new(GroupFormView(timeZone: viewer.profile.timeZone), encrypted: false, context: context)
        }
        routes.post("groups") { _, context in
            let viewer = try context.requireWebViewer()
            let form = context.web.form
            do {
                // Who can join as chosen, even with "Encrypted": an encrypted group that is not private is refused
                // (and said so), never quietly made private.
                let encrypted = form["encrypted"] == "on"
                let request = CreateGroupRequest(
                    name: form.all("name").first ?? "", description: form.all("description").first ?? "",
                    access: try form.groupAccess(), timeZone: form["time_zone"], encrypted: encrypted ? true : nil)
                let group = try await groups.create(request, by: viewer)
                return WebPages.redirect(to: "/groups/\(group.id)?done=created")
            } catch {
                guard let (status, messages) = WebErrors.explain(error) else { throw error }
                var problems: [FieldError] = []
                if case SpotterError.validation(let fields) = error { problems = fields }
                let view = GroupFormView(
                    form: form, defaultTimeZone: viewer.profile.timeZone, problems: problems,
                    errors: problems.isEmpty ? messages : [])
                var response = try await new(view, encrypted: form["encrypted"] == "on", context: context)
                response.status = status
                return response
            }
        }
        routes.get("groups/:id") { request, context in
            try await page(try context.webID("id"), request: request, context: context)
        }
        // The page's seen form: its script sends it on load (asking for JSON, answered 204); without script, its
        // button does, and comes back to the group.
        routes.post("groups/:id/seen") { request, context in
            let id: GroupID = try context.webID("id")
            guard let post = context.web.form["up_to"].flatMap(PostID.init) else {
                throw SpotterError.invalid("up_to", "is not a post of this group")
            }
            _ = try await groups.markSeen(id, upTo: post, by: try context.requireWebViewer())
            guard request.headers[.accept]?.contains("application/json") == true else {
                return WebPages.redirect(to: "/groups/\(id)")
            }
            return Response(status: .noContent)
        }
        routes.post("groups/:id/join") { _, context in
            let group = try await groups.join(try context.webID("id"), by: try context.requireWebViewer())
            return WebPages.redirect(
                to: "/groups/\(group.id)?done=\(group.standing == .requested ? "requested" : "joined")")
        }
        // Leaving, withdrawing a request and declining an invitation are one route, as in the API.
        routes.post("groups/:id/leave") { _, context in
            let id: GroupID = try context.webID("id")
            let viewer = try context.requireWebViewer()
            let before = try await groups.get(id, viewer: viewer).standing
            try await groups.leave(id, by: viewer)
            let done =
                switch before {
                case .requested: "withdrawn"
                case .invited: "declined"
                default: "left"
                }
            // A private group no longer exists for someone who left it: back to the list.
            return WebPages.redirect(to: "/groups?done=\(done)")
        }
        return routes
    }

    /// How many members an encrypted group's page names for its admins' devices to reconcile with: families and
    /// clubs, not crowds.
    static let membersToReconcile = 200

    static let notices = [
        "created": "Your group is ready. Invite people from its settings.",
        "joined": "You joined the group.",
        "requested": "You asked to join. An admin will let you in.",
        "left": "You left the group.",
        "withdrawn": "Your request to join is withdrawn.",
        "declined": "The invitation is declined.",
        "deleted": "The group is deleted.",
    ]

    private func list(query: String, notice: String?, context: AppRequestContext) async throws -> Response {
        let viewer = context.viewer
        let mine = try await viewer.asyncMap { try await groups.mine($0) } ?? []
        let invitations = try await viewer.asyncMap { viewer in
            var seen = Set<GroupID>()
            var invited: [GroupView] = []
            for invitation in try await groups.invitations(for: viewer) where seen.insert(invitation.group.id).inserted
            {
                invited.append(GroupView(try await groups.get(invitation.group.id, viewer: viewer), viewer: viewer))
            }
            return invited
        }
        let requested = try await viewer.asyncMap { try await groups.requested(by: $0) } ?? []
        let found = try await groups.discover(query, viewer: viewer)
        let view = ListView(
            signedIn: viewer != nil, mine: mine.map { GroupView($0, viewer: viewer) }, hasMine: !mine.isEmpty,
            invitations: invitations ?? [], hasInvitations: !(invitations ?? []).isEmpty,
            requests: requested.map { GroupView($0, viewer: viewer) }, hasRequests: !requested.isEmpty, query: query,
            searched: query.isEmpty ? nil : query,
            found: found.map { GroupView($0, viewer: viewer) }, nothingFound: found.isEmpty, notice: notice)
        return try await pages.page("groups", title: "Groups", content: view, context: context, nav: .groups)
    }

    private func new(_ form: GroupFormView, encrypted: Bool, context: AppRequestContext) async throws -> Response {
        try await pages.page(
            "group_new", title: "New group", content: NewView(form: form, encrypted: encrypted), context: context,
            nav: .groups)
    }

    private func page(_ id: GroupID, request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = context.viewer
        let group = GroupView(try await groups.get(id, viewer: viewer), viewer: viewer)
        let query = request.uri.queryParameters
        let cursor = query["cursor"].map(String.init)
        let top = query["order"] == "top"
        var posts: [PostView] = []
        var nextHref: String?
        var seenUpTo: String?
        if group.canReadPosts {
            let page =
                top
                ? try await feeds.groupTop(id, viewer: viewer, limit: nil, cursor: cursor)
                : try await feeds.group(
                    id, viewer: viewer, page: try PageRequest(limit: nil, cursor: cursor, since: nil))
            let now = clock.now
            posts = page.items.map { PostView($0, now: now, viewer: viewer) }
            nextHref = page.nextCursor.map { "/groups/\(id)?\(top ? "order=top&" : "")cursor=\($0)" }
            // A member who opens the newest posts has seen them: "N new" in their list starts again from here. A GET
            // changes nothing (a link preview or a prefetch sees nothing for them), so the page says so with a POST
            // its script sends (`groups.js`), as the API's clients do (`POST /api/v1/groups/<id>/seen`).
            if viewer != nil, group.isMember, group.newLabel != nil, !top, cursor == nil {
                seenUpTo = page.items.first?.id.description
            }
        }
        if query["fragment"] != nil {
            return pages.fragment(
                "feed_items",
                content: WebFeedController.FragmentView(posts: posts, nextHref: nextHref, csrf: context.web.csrfToken))
        }
        let sealedChildren =
            group.encrypted && group.isMember
            ? try await viewer.asyncMap { try await children.mine($0) } ?? [] : []
        let members =
            group.encrypted && group.isMember
            ? try await groups.members(id, viewer: viewer, after: nil, limit: Self.membersToReconcile) : []
        let view = PageView(
            group: group, posts: posts, isEmpty: posts.isEmpty, nextHref: nextHref,
            liveTopic: group.canReadPosts && viewer != nil && cursor == nil ? "group:\(id)" : nil, insertsLive: !top,
            orders: [("Newest", "/groups/\(id)", !top), ("Top", "/groups/\(id)?order=top", top)].map {
                WebFeedController.TabView(label: $0.0, href: $0.1, active: $0.2)
            },
            signedOut: viewer == nil, signinHref: ReturnTo.signinPath(returningTo: request),
            hasActions: viewer == nil || group.pendingLabel != nil || group.canJoin || group.canAsk
                || group.hasRequested || group.isInvited || group.canLeave,
            notice: query["done"].flatMap { Self.notices[String($0)] },
            sealedChildren: sealedChildren.map { ChildChoice(id: $0.id.description, name: $0.name) },
            hasSealedChildren: !sealedChildren.isEmpty,
            memberIDs: members.map(\.person.id.description).joined(separator: " "),
            adminIDs: members.filter { $0.role >= .admin }.map(\.person.id.description).joined(separator: " "),
            seenUpTo: seenUpTo)
        return try await pages.page("group", title: group.name, content: view, context: context, nav: .groups)
    }
}
