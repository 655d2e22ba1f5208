import Foundation
import Observation
import SpotterModels

/// Search as the user types: waits `debounce` after the last keystroke, and a newer query cancels the one in
/// flight, so results never arrive out of order.
///
/// ```swift
/// TextField("Search", text: $model.query).onChange(of: model.query) { model.queryChanged() }
/// List(model.results.users, id: \.id) { Text($0.username) }
/// ```
@MainActor
@Observable
public final class SearchViewModel {
    public var query = ""
    public var kind: SearchKind
    public private(set) var results = SearchResults()
    public private(set) var isSearching = false
    public private(set) var errorMessage: String?
    /// How many searches reached the server (for tests and diagnostics).
    public private(set) var requestsSent = 0

    private let client: SpotterClient
    private let debounce: Duration
    private let analytics: AnalyticsTracker?
    private var pending: Task<Void, Never>?

    /// - Parameter analytics: where `search_result_click` goes.
    public init(
        client: SpotterClient, kind: SearchKind = .users, debounce: Duration = .milliseconds(300),
        analytics: AnalyticsTracker? = nil
    ) {
        self.client = client
        self.kind = kind
        self.debounce = debounce
        self.analytics = analytics
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
            results = SearchResults()
            isSearching = false
            return
        }
        isSearching = true
        pending = Task { [debounce, kind] in
            try? await Task.sleep(for: debounce)
            guard !Task.isCancelled else { return }
            self.requestsSent += 1
            do {
                let found = try await self.client.search(text, kind: kind)
                guard !Task.isCancelled else { return }  // a newer query owns the results now
                self.results = found
                self.errorMessage = nil
            } catch {
                guard !Task.isCancelled else { return }
                self.errorMessage = FeedViewModel.message(error)
            }
            self.isSearching = false
        }
    }

    /// Waits for the search in flight, if any.
    public func settle() async { await pending?.value }
}
