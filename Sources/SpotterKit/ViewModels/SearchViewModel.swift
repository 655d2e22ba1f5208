import Foundation
import Observation
import SpotterModels

/// Search as the user types (Nova's search flow): waits `debounce` (300 ms) after the last keystroke, and a
/// newer query cancels the one in flight, so results never arrive out of order. With the session's database,
/// what a query found last time shows at once (offline too) while it is asked again, and what is found is
/// kept. More results come a page at a time (`loadMore`, while `hasMore`).
///
/// ```swift
/// TextField("Search", text: $model.query).onChange(of: model.query) { model.queryChanged() }
/// List(model.results.users, id: \.id) { user in
///     Text(user.username).task { if user.id == model.results.users.last?.id { await model.loadMore() } }
/// }
/// ```
@MainActor
@Observable
public final class SearchViewModel {
    public var query = ""
    public var kind: SearchKind
    public private(set) var results = SearchResults()
    public private(set) var isSearching = false
    /// More results of `kind` follow `results`: `loadMore()` fetches the next page.
    public var hasMore: Bool { results.hasMore && results.nextCursor != nil }
    public private(set) var errorMessage: String?
    /// How many searches reached the server (for tests and diagnostics).
    public private(set) var requestsSent = 0

    private let client: SpotterClient
    private let debounce: Duration
    private let analytics: AnalyticsTracker?
    private let database: AppDatabase?
    private var pending: Task<Void, Never>?
    /// The text `results` were found for.
    private var shownText: String?

    /// - Parameters:
    ///   - analytics: where `search_result_click` goes.
    ///   - database: where searches are kept, to show at once next time; nil keeps none.
    public init(
        client: SpotterClient, kind: SearchKind = .users, debounce: Duration = .milliseconds(300),
        analytics: AnalyticsTracker? = nil, database: AppDatabase? = nil
    ) {
        self.client = client
        self.kind = kind
        self.debounce = debounce
        self.analytics = analytics
        self.database = database
    }

    /// The session's search: its client, analytics and database.
    public convenience init(session: SpotterSession, kind: SearchKind = .users) {
        self.init(client: session.client, kind: kind, analytics: session.analytics, database: session.database)
    }

    /// A result was tapped: counted (`search_result_click`, with the kind searched and the result's place in
    /// the list, never the query).
    public func selected(at position: Int) async {
        await analytics?.track(
            "search_result_click", properties: ["kind": kind.rawValue, "position": String(position)])
    }

    /// Call on every change of `query` (or `kind`).
    public func queryChanged() {
        pending?.cancel()
        let text = query.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else {
            (results, shownText, isSearching) = (SearchResults(), nil, false)
            return
        }
        isSearching = true
        pending = Task { [debounce, kind, database] in
            // What this query found last time, at once; the network's answer replaces it.
            if let kept = try? await database?.searchResults(text, kind: kind), !Task.isCancelled {
                (self.results, self.shownText) = (kept, text)
            }
            try? await Task.sleep(for: debounce)
            guard !Task.isCancelled else { return }
            self.requestsSent += 1
            do {
                let found = try await self.client.search(text, kind: kind)
                guard !Task.isCancelled else { return }  // a newer query owns the results now
                (self.results, self.shownText, self.errorMessage) = (found, text, nil)
                try? await database?.save(found, for: text, kind: kind)
            } catch {
                guard !Task.isCancelled else { return }
                if self.shownText != text { (self.results, self.shownText) = (SearchResults(), nil) }
                self.errorMessage = FeedViewModel.message(error)
            }
            self.isSearching = false
        }
    }

    /// The next page of results, after those shown (kept with them).
    public func loadMore() async {
        guard hasMore, !isSearching, let text = shownText, let cursor = results.nextCursor else { return }
        isSearching = true
        defer { isSearching = false }
        do {
            let page = try await client.search(text, kind: kind, cursor: cursor)
            guard shownText == text, results.nextCursor == cursor else { return }  // the query changed meanwhile
            results = results.followed(by: page)
            errorMessage = nil
            try? await database?.save(results, for: text, kind: kind)
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    /// Waits for the search in flight, if any.
    public func settle() async { await pending?.value }
}

extension SearchResults {
    /// These results with the next page after them (what a page repeats is shown once), and its paging.
    func followed(by page: SearchResults) -> SearchResults {
        func appending<Item, ID: Hashable>(_ shown: [Item], _ more: [Item], _ id: (Item) -> ID) -> [Item] {
            var seen = Set(shown.map(id))
            return shown + more.filter { seen.insert(id($0)).inserted }
        }
        return SearchResults(
            users: appending(users, page.users, \.id), tags: appending(tags, page.tags, \.tag),
            posts: appending(posts, page.posts, \.id), groups: appending(groups, page.groups, \.id),
            hasMore: page.hasMore, nextCursor: page.nextCursor)
    }
}
