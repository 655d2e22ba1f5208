import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/u/<username>`: a profile, its posts, its training chart, and follow / unfollow.
struct WebProfileController {
    let social: SocialService
    let feeds: FeedService
    let progress: ProgressService
    let pages: WebPages
    let clock: any WallClock

    struct ProfileView {
        let username: String
        let displayName: String
        let initials: String
        let avatarURL: String?
        let avatarSize = "large"
        let bio: String?
        let followers: Int
        let following: Int
        let postsCount: Int
        let isMe: Bool
        let canFollow: Bool
        let isFollowing: Bool
        let isRequested: Bool
        /// Neither following nor requested: the Follow (or, for a private account, Request) button.
        let canRequest: Bool
        let isPrivate: Bool
        let isMuted: Bool
        let listsVisible: Bool
        let followsYou: Bool
        let chart: ProgressChart?
        let posts: [PostView]
        let nextHref: String?
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("u/:username") { request, context in
            let username = try context.text("username")
            let viewer = context.identity?.account
            let profile = try await social.profile(username, viewer: viewer)
            let cursor = request.uri.queryParameters["cursor"].map(String.init)
            let page = try await feeds.author(
                username, viewer: viewer, page: try PageRequest(limit: nil, cursor: cursor, since: nil))
            let relationship = profile.relationship
            // The profile answered, so the person exists for the viewer: the rest of the rule is privacy and follows.
            let listsVisible = PersonPolicy.allows(
                .lists,
                .init(
                    signedIn: viewer != nil, isSelf: viewer?.id == profile.id,
                    follows: relationship?.following == .following, privacy: profile.privacy))
            // A private account's progress, like its lists, is its followers' business: a stranger would see an
            // empty chart (they see none of the workouts) and read it as "never trains", so they see none.
            let report = listsVisible ? try? await progress.report(for: username, viewer: viewer, weeks: "12") : nil
            let now = clock.now
            let view = ProfileView(
                username: profile.username, displayName: profile.displayName,
                initials: ViewerView.initials(of: profile.displayName), avatarURL: profile.avatarURL,
                bio: profile.bio.isEmpty ? nil : profile.bio,
                followers: profile.followersCount, following: profile.followingCount, postsCount: profile.postsCount,
                isMe: viewer?.id == profile.id, canFollow: viewer != nil && viewer?.id != profile.id,
                isFollowing: relationship?.following == .following, isRequested: relationship?.following == .requested,
                canRequest: (relationship?.following ?? FollowState.none) == FollowState.none,
                isPrivate: profile.privacy == .private,
                isMuted: relationship?.muting == true,
                listsVisible: listsVisible,
                followsYou: relationship?.followedBy == true,
                chart: report.map { ProgressChart($0, units: viewer?.profile.units ?? .kg) },
                posts: page.items.map { PostView($0, now: now, viewer: viewer) },
                nextHref: page.nextCursor.map { "/u/\(profile.username)?cursor=\($0)" })
            let nav: WebNav = viewer?.id == profile.id ? .profile : .none
            return try await pages.page(
                "profile", title: "\(profile.displayName) (@\(profile.username))", content: view, context: context,
                nav: nav)
        }
        routes.post("u/:username/follow") { _, context in
            let username = try context.text("username")
            _ = try await social.follow(username, viewer: try context.requireWebViewer())
            return WebPages.redirect(to: context.web.form.back(or: "/u/\(username)"))
        }
        routes.post("u/:username/unfollow") { _, context in
            let username = try context.text("username")
            _ = try await social.unfollow(username, viewer: try context.requireWebViewer())
            return WebPages.redirect(to: "/u/\(username)")
        }
        return routes
    }
}
