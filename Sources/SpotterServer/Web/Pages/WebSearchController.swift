import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/search?q=…`: people, tags, groups and posts. The page works as a plain form; `app.js` re-asks as you type
/// (debounced) for just the results, with `fragment=1`.
struct WebSearchController {
    let search: SearchService
    let pages: WebPages
    let clock: any WallClock

    struct SearchView {
        let query: String
        let hasQuery: Bool
        let people: [ViewerView]
        let tags: [TagView]
        let posts: [PostView]
        let groups: [GroupView]
        let hasPeople: Bool
        let hasTags: Bool
        let hasGroups: Bool
        let nothingFound: Bool
        let csrf: String
    }

    struct TagView {
        let tag: String
        let count: Int
        let href: String
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("search") { request, context in
            let parameters = request.uri.queryParameters
            let query = parameters["q"].map(String.init)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            var results = SearchResults()
            if !query.isEmpty {
                results = try await search.search(
                    query: query, type: nil, limit: "10", viewer: context.identity?.account)
            }
            let now = clock.now
            let view = SearchView(
                query: query, hasQuery: !query.isEmpty, people: results.users.map(ViewerView.init),
                tags: results.tags.map { TagView(tag: $0.tag, count: $0.postsCount, href: WebFormat.tagHref($0.tag)) },
                posts: results.posts.map {
                    PostView($0, now: now, viewer: context.viewer)
                },
                groups: results.groups.map { GroupView($0, viewer: context.identity?.account) },
                hasPeople: !results.users.isEmpty, hasTags: !results.tags.isEmpty, hasGroups: !results.groups.isEmpty,
                nothingFound: !query.isEmpty && results.users.isEmpty && results.tags.isEmpty && results.posts.isEmpty
                    && results.groups.isEmpty,
                csrf: context.web.csrfToken)
            if parameters["fragment"] != nil { return pages.fragment("search_results", content: view) }
            return try await pages.page("search", title: "Search", content: view, context: context, nav: .search)
        }
        return routes
    }
}

extension ViewerView {
    init(_ author: AuthorSummary) {
        id = author.id.description
        username = author.username
        displayName = author.displayName
        initials = Self.initials(of: author.displayName)
        avatarURL = author.avatarURL
        avatarSize = "small"
    }
}
