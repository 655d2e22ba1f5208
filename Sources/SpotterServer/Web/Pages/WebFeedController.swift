import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/` and `/feed/<tab>`: the three feeds as tabs, with cursor paging.
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
        let tab: String
        let tabs: [TabView]
        let posts: [PostView]
        let isEmpty: Bool
        let nextHref: String?
        /// The realtime topic whose `new_post` events this tab shows as "N new posts".
        let liveTopic: String?
        let signedOut: Bool
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
        let display = WebDisplay(viewer: context.identity?.account)
        let posts = page.items.map { PostView($0, now: now, units: display.units, timeZone: display.timeZone) }
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
            tab: tab.rawValue,
            tabs: Tab.allCases.filter { viewer != nil || $0 != .following }.map {
                TabView(label: $0.label, href: "/feed/\($0.rawValue)", active: $0 == tab)
            },
            posts: posts, isEmpty: posts.isEmpty, nextHref: nextHref, liveTopic: cursor == nil ? liveTopic : nil,
            signedOut: viewer == nil)
        return try await pages.page("feed", title: "\(tab.label) feed", content: view, context: context, nav: .feed)
    }
}
