import Foundation
import Observation
import SpotterModels

/// One feed, ready for a SwiftUI list: first page, more, pull to refresh, kudos that change at once and
/// change back if the server refuses, and live posts held behind an "N new posts" bar.
///
/// ```swift
/// struct FeedScreen: View {
///     @State var model: FeedViewModel
///     var body: some View {
///         List(model.posts, id: \.id) { post in
///             PostRow(post: post) { Task { await model.toggleKudos(post.id) } }
///                 .task { if post.id == model.posts.last?.id { await model.loadMore() } }
///         }
///         .overlay(alignment: .top) {
///             if model.newPostsCount > 0 { Button("\(model.newPostsCount) new posts") { model.showNewPosts() } }
///         }
///         .refreshable { await model.refresh() }
///         .task { await model.loadInitial() }
///     }
/// }
/// ```
@MainActor
@Observable
public final class FeedViewModel {
    public let kind: FeedKind
    public private(set) var posts: [Post] = []
    /// Live posts waiting behind the "N new posts" bar.
    public var newPostsCount: Int { waiting.count }
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    /// The last thing that went wrong, in words for the user; cleared by the next success.
    public private(set) var errorMessage: String?

    private let client: SpotterClient
    private let outbox: ActionQueue?
    private var nextCursor: String?
    private var waiting: [Post] = []

    /// - Parameter outbox: where kudos go, so they survive going offline; without one they are sent directly.
    public init(kind: FeedKind, client: SpotterClient, outbox: ActionQueue? = nil) {
        self.kind = kind
        self.client = client
        self.outbox = outbox
    }

    public func loadInitial() async {
        guard posts.isEmpty else { return }
        await load(cursor: nil, replacing: true)
    }

    public func loadMore() async {
        guard hasMore, !isLoading, let nextCursor else { return }
        await load(cursor: nextCursor, replacing: false)
    }

    /// Pull to refresh: the newest page replaces what is shown, and waiting live posts with it.
    public func refresh() async {
        waiting = []
        await load(cursor: nil, replacing: true)
    }

    /// A post that arrived live: waits behind the bar unless it is shown already (then it is updated).
    public func receiveLive(_ post: Post) {
        if let index = posts.firstIndex(where: { $0.id == post.id }) {
            posts[index] = post
        } else if !waiting.contains(where: { $0.id == post.id }) {
            waiting.append(post)
        }
    }

    /// The bar was tapped: the waiting posts go on top, newest first.
    public func showNewPosts() {
        posts = waiting.sorted { $0.id.rawValue.uuidString > $1.id.rawValue.uuidString } + posts
        waiting = []
    }

    /// Gives or takes back kudos now, and reverts with a message if the server refuses for good.
    public func toggleKudos(_ id: PostID) async {
        guard let index = posts.firstIndex(where: { $0.id == id }) else { return }
        let given = !posts[index].kudosedByMe
        apply(kudos: given, to: id)
        do {
            if let outbox {
                let queued = try await outbox.enqueue(.setKudos(id, given: given))
                for outcome in await outbox.drain() {
                    if case .refused(let refused, let problem) = outcome, refused.id == queued.id {
                        apply(kudos: !given, to: id)
                        errorMessage = problem.detail ?? problem.title
                        try? await outbox.discard(refused.id)  // reverted and said: nothing left to retry
                    }
                }
            } else {
                let state = try await client.setKudos(given, on: id)
                if let index = posts.firstIndex(where: { $0.id == id }) {
                    posts[index].kudosedByMe = state.kudosedByMe
                    posts[index].kudosCount = state.kudosCount
                }
            }
        } catch let error as SpotterClientError where !error.isTransient {
            apply(kudos: !given, to: id)
            errorMessage = Self.message(error)
        } catch {
            errorMessage = Self.message(error)
        }
    }

    private func apply(kudos given: Bool, to id: PostID) {
        guard let index = posts.firstIndex(where: { $0.id == id }), posts[index].kudosedByMe != given else { return }
        posts[index].kudosedByMe = given
        posts[index].kudosCount += given ? 1 : -1
    }

    private func load(cursor: String?, replacing: Bool) async {
        isLoading = true
        defer { isLoading = false }
        do {
            let page = try await client.feed(kind, cursor: cursor)
            let shown = Set(posts.map(\.id))
            posts = replacing ? page.items : posts + page.items.filter { !shown.contains($0.id) }
            nextCursor = page.nextCursor
            hasMore = page.nextCursor != nil
            errorMessage = nil
        } catch {
            errorMessage = Self.message(error)
        }
    }

    static func message(_ error: any Error) -> String {
        switch error {
        case SpotterClientError.problem(let problem): problem.detail ?? problem.title
        case SpotterClientError.transport: "You're offline. Showing what was loaded."
        case SpotterClientError.signedOut: "Please sign in again."
        default: "Something went wrong."
        }
    }
}
