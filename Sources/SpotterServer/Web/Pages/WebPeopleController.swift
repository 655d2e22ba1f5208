import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// Lists of people: `/u/<name>/followers` and `/following`, `/follow-requests` with Approve and Deny,
/// block and mute (and their undoing) with `/settings/people` listing both, and `/welcome`, the first page
/// after joining, suggesting people to follow. Every rule is `SocialService`'s, as for the API.
struct WebPeopleController {
    let social: SocialService
    let pages: WebPages

    /// One person in a list, with what the row offers.
    struct PersonView {
        let username: String
        let displayName: String
        let initials: String
        let avatarURL: String?
        let avatarSize = "small"

        init(_ person: AuthorSummary) {
            username = person.username
            displayName = person.displayName
            initials = ViewerView.initials(of: person.displayName)
            avatarURL = person.avatarURL
        }
    }

    struct ListView {
        let heading: String
        let isFollowers: Bool
        let username: String
        let displayName: String
        let people: [PersonView]
        let isEmpty: Bool
        let empty: String
        let nextHref: String?
    }

    struct RequestsView {
        let people: [PersonView]
        let isEmpty: Bool
        let nextHref: String?
    }

    struct RestrictedView {
        let blocks: [PersonView]
        let mutes: [PersonView]
        let noBlocks: Bool
        let noMutes: Bool
        let moreBlocksHref: String?
        let moreMutesHref: String?
        let notice: String?
    }

    struct WelcomeView {
        let displayName: String
        let people: [PersonView]
        let isEmpty: Bool
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("u/:username/followers") { request, context in
            try await list(.followers, request: request, context: context)
        }
        routes.get("u/:username/following") { request, context in
            try await list(.following, request: request, context: context)
        }
        routes.get("follow-requests") { request, context in
            let viewer = try context.requireWebViewer()
            let cursor = request.uri.queryParameters["cursor"].map(String.init)
            let page = try await social.followRequests(viewer: viewer, page: try FollowPage(limit: nil, cursor: cursor))
            let view = RequestsView(
                people: page.items.map(PersonView.init), isEmpty: page.items.isEmpty,
                nextHref: page.nextCursor.map { "/follow-requests?cursor=\($0)" })
            return try await pages.page(
                "follow_requests", title: "Follow requests", content: view, context: context, nav: .notifications)
        }
        for (action, approve) in [("approve", true), ("deny", false)] {
            routes.post("follow-requests/:username/\(action)") { _, context in
                let viewer = try context.requireWebViewer()
                try await social.answerRequest(from: try context.text("username"), viewer: viewer, approve: approve)
                return WebPages.redirect(to: context.web.form.back(or: "/follow-requests"))
            }
        }
        for (action, on) in [("block", true), ("unblock", false)] {
            routes.post("u/:username/\(action)") { _, context in
                let username = try context.text("username")
                _ = try await social.setBlocked(username, viewer: try context.requireWebViewer(), blocked: on)
                // A blocked profile no longer exists for the blocker: the list, with its Unblock, is where to go.
                let notice = on ? "blocked" : "unblocked"
                return WebPages.redirect(to: context.web.form.back(or: "/settings/people?\(notice)=\(username)"))
            }
        }
        for (action, on) in [("mute", true), ("unmute", false)] {
            routes.post("u/:username/\(action)") { _, context in
                let username = try context.text("username")
                _ = try await social.setMuted(username, viewer: try context.requireWebViewer(), muted: on)
                return WebPages.redirect(to: context.web.form.back(or: "/u/\(username)"))
            }
        }
        routes.get("settings/people") { request, context in
            try await restricted(request: request, context: context)
        }
        routes.get("welcome") { _, context in
            let viewer = try context.requireWebViewer()
            let people = try await social.suggestions(viewer: viewer).map(PersonView.init)
            let view = WelcomeView(displayName: viewer.displayName, people: people, isEmpty: people.isEmpty)
            return try await pages.page("welcome", title: "Welcome", content: view, context: context)
        }
        return routes
    }

    private func list(
        _ kind: SocialService.ListKind, request: Request, context: AppRequestContext
    ) async throws -> Response {
        let username = try context.text("username")
        let viewer = context.identity?.account
        let cursor = request.uri.queryParameters["cursor"].map(String.init)
        let profile = try await social.profile(username, viewer: viewer)
        let page = try await social.list(
            kind, of: username, viewer: viewer, page: try FollowPage(limit: nil, cursor: cursor))
        let heading = kind == .followers ? "Followers" : "Following"
        let path = kind == .followers ? "followers" : "following"
        let view = ListView(
            heading: heading, isFollowers: kind == .followers, username: profile.username,
            displayName: profile.displayName,
            people: page.items.map(PersonView.init), isEmpty: page.items.isEmpty,
            empty: kind == .followers ? "No followers yet." : "Not following anyone yet.",
            nextHref: page.nextCursor.map { "/u/\(profile.username)/\(path)?cursor=\($0)" })
        return try await pages.page(
            "people_list", title: "\(heading) of \(profile.displayName)", content: view, context: context)
    }

    private func restricted(request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.requireWebViewer()
        let query = request.uri.queryParameters
        let blocks = try await social.restricted(
            .blocks, viewer: viewer, page: try FollowPage(limit: nil, cursor: query["blocks_cursor"].map(String.init)))
        let mutes = try await social.restricted(
            .mutes, viewer: viewer, page: try FollowPage(limit: nil, cursor: query["mutes_cursor"].map(String.init)))
        var notice: String?
        if let name = query["blocked"] { notice = "You blocked @\(name). They can no longer see you or follow you." }
        if let name = query["unblocked"] { notice = "You unblocked @\(name)." }
        let view = RestrictedView(
            blocks: blocks.items.map(PersonView.init), mutes: mutes.items.map(PersonView.init),
            noBlocks: blocks.items.isEmpty, noMutes: mutes.items.isEmpty,
            moreBlocksHref: blocks.nextCursor.map { "/settings/people?blocks_cursor=\($0)" },
            moreMutesHref: mutes.nextCursor.map { "/settings/people?mutes_cursor=\($0)" }, notice: notice)
        return try await pages.page("settings_people", title: "Blocked and muted", content: view, context: context)
    }
}

extension WebForm {
    /// Where a form asks to go back to (`back`), when it is a path on this site; otherwise `fallback`. Only
    /// a local path is taken, so a forged form cannot send anyone elsewhere.
    func back(or fallback: String) -> String {
        guard let back = self["back"], back.hasPrefix("/"), !back.hasPrefix("//"), !back.contains("\\"),
            back.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }), back.count <= 200
        else { return fallback }
        return back
    }
}
