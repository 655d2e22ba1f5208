import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/` and `/feed/<tab>`: the three feeds as tabs, with cursor paging; `/tags/<tag>`: one tag's posts.
///
/// "Load more" is a plain link to the next page; with JavaScript, `app.js` fetches the same URL with
/// `?fragment=1` and appends just the items, so the page works either way.
struct WebFeedController {
    let feeds: FeedService
    let pages: WebPages
    let clock: any WallClock

    enum Tab: String, CaseIterable {
        case following, featured, global

        var label: String { rawValue.capitalized }
    }

    struct TabView {
        let label: String
        let href: String
        let active: Bool
    }

    struct FeedView {
        let heading: String
        let tab: String
        let tabs: [TabView]
        let hasTabs: Bool
        let posts: [PostView]
        let isEmpty: Bool
        let nextHref: String?
        /// The realtime topic whose `new_post` events this tab shows as "N new posts".
        let liveTopic: String?
        let signedOut: Bool
        /// Some post is of an encrypted group: the page loads the scripts that open it in place.
        let hasSealed: Bool
    }

    struct FragmentView {
        let posts: [PostView]
        let nextHref: String?
        let csrf: String
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get { request, context in
            try await feed(context.identity == nil ? .global : .following, request: request, context: context)
        }
        routes.get("feed/:tab") { request, context in
            guard let tab = Tab(rawValue: try context.text("tab")) else {
                throw SpotterError.notFound("There is no such feed.")
            }
            return try await feed(tab, request: request, context: context)
        }
        // A tag's feed, where `#tags` in posts and search lead; a word that is no tag has no feed (404).
        routes.get("tags/:tag") { request, context in
            let tag = try context.text("tag")
            let cursor = request.uri.queryParameters["cursor"].map(String.init)
            let page: Page<Post>
            do {
                page = try await feeds.tag(
                    tag, viewer: context.viewer, page: try PageRequest(limit: nil, cursor: cursor, since: nil))
            } catch SpotterError.malformed(_, "tag") {
                throw SpotterError.notFound("#\(tag) is not a tag.")
            }
            let now = clock.now
            let posts = page.items.map { PostView($0, now: now, viewer: context.viewer) }
            let nextHref = page.nextCursor.map { WebFormat.tagHref(tag.lowercased()) + "?cursor=\($0)" }
            if request.uri.queryParameters["fragment"] != nil {
                return pages.fragment(
                    "feed_items", content: FragmentView(posts: posts, nextHref: nextHref, csrf: context.web.csrfToken))
            }
            let view = FeedView(
                heading: "#\(tag.lowercased())", tab: "tag", tabs: [], hasTabs: false, posts: posts,
                isEmpty: posts.isEmpty,
                nextHref: nextHref, liveTopic: nil, signedOut: false, hasSealed: posts.contains { $0.sealed != nil })
            return try await pages.page(
                "feed", title: "#\(tag.lowercased())", content: view, context: context, nav: .search)
        }
        return routes
    }

    private func feed(_ tab: Tab, request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let cursor = query["cursor"].map(String.init)
        let viewer = context.identity?.account
        let page: Page<Post>
        switch tab {
        case .following:
            page = try await feeds.following(
                viewer: try context.requireWebViewer(), page: try PageRequest(limit: nil, cursor: cursor, since: nil))
        case .featured:
            page = try await feeds.featured(viewer: viewer, limit: nil, cursor: cursor)
        case .global:
            page = try await feeds.global(viewer: viewer, page: try PageRequest(limit: nil, cursor: cursor, since: nil))
        }
        let now = clock.now
        let posts = page.items.map {
            PostView($0, now: now, viewer: viewer)
        }
        let nextHref = page.nextCursor.map { "/feed/\(tab.rawValue)?cursor=\($0)" }
        if query["fragment"] != nil {
            return pages.fragment(
                "feed_items", content: FragmentView(posts: posts, nextHref: nextHref, csrf: context.web.csrfToken))
        }
        let liveTopic: String? =
            switch tab {
            case .following: viewer.map { "feed:\($0.id)" }
            case .global: viewer == nil ? nil : "community:feed"
            case .featured: nil
            }
        let view = FeedView(
            heading: "\(tab.label) feed", tab: tab.rawValue,
            tabs: Tab.allCases.filter { viewer != nil || $0 != .following }.map {
                TabView(label: $0.label, href: "/feed/\($0.rawValue)", active: $0 == tab)
            }, hasTabs: true,
            posts: posts, isEmpty: posts.isEmpty, nextHref: nextHref, liveTopic: cursor == nil ? liveTopic : nil,
            signedOut: viewer == nil, hasSealed: posts.contains { $0.sealed != nil })
        return try await pages.page("feed", title: "\(tab.label) feed", content: view, context: context, nav: .feed)
    }
}
