import Foundation
import GRDB
import Observation
import SpotterModels

/// The notifications screen and the app's badge, offline first (issue 40; FameFit's and Nova's inbox): the
/// inbox as the server groups it ("Ana and 2 others gave kudos to…"), kept in the client database so a cold
/// start without a network shows what was last seen; the badge live from the socket's `unread_count`; marks
/// and archives that show at once and reach the server through the outbox, offline too; and for each row the
/// screen a tap opens (`NotificationRoute`).
///
/// ```swift
/// struct InboxScreen: View {
///     @State var model: NotificationsViewModel
///     var body: some View {
///         List(model.groups, id: \.groupKey) { group in
///             Button(group.text) { Task { navigate(to: await model.open(group)) } }
///                 .swipeActions { Button("Archive") { Task { await model.archive(group) } } }
///                 .task { if group.groupKey == model.groups.last?.groupKey { await model.loadMore() } }
///         }
///         .toolbar { Button("Mark all read") { Task { await model.markAllRead() } } }
///         .refreshable { await model.refresh() }
///         .task { await model.appeared() }
///     }
/// }
/// // Elsewhere: for await event in session.realtime.events { if case .push(let push, _) = event { await model.receive(push) } }
/// ```
@MainActor
@Observable
public final class NotificationsViewModel {
    /// The inbox as the client database holds it, newest first.
    public private(set) var groups: [NotificationGroup] = []
    /// Notifications not yet read, for the app icon and the tab's badge (`NotificationCounts.badge` writes it).
    public private(set) var unreadCount = 0
    /// Notifications that came since the inbox was last opened.
    public private(set) var unseenCount = 0
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    /// The last thing that went wrong, in words for the user; cleared by the next success.
    public private(set) var errorMessage: String?

    private let client: SpotterClient
    private let outbox: ActionQueue
    private let analytics: AnalyticsTracker?
    private var database: AppDatabase { outbox.database }
    private var nextCursor: String?
    private var shown = PostsShown<KeptInbox>()
    @ObservationIgnored nonisolated(unsafe) private var observation: Task<Void, Never>?

    /// - Parameters:
    ///   - outbox: where marks and archives go; the inbox is read from its database.
    ///   - analytics: where `notification_open` goes.
    public init(client: SpotterClient, outbox: ActionQueue, analytics: AnalyticsTracker? = nil) {
        self.client = client
        self.outbox = outbox
        self.analytics = analytics
    }

    /// The session's inbox: its client, outbox, database and analytics.
    public convenience init(session: SpotterSession) {
        self.init(client: session.client, outbox: session.outbox, analytics: session.analytics)
    }

    deinit { observation?.cancel() }

    /// For the badge alone (a tab bar): the kept counts at once, then the server's.
    public func loadBadge() async {
        await observe()
        do {
            try await database.saveInboxCounts(try await client.notificationCounts())
            errorMessage = nil
            await showStored()
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    /// The screen opened: the kept inbox at once, the newest page from the network, and everything in it
    /// marked seen (the badge's "new" clears; read stays until a row is opened).
    public func appeared() async {
        await observe()
        await load(cursor: nil)
        await markSeen()
    }

    /// Pull to refresh: the newest page replaces what was kept.
    public func refresh() async {
        await load(cursor: nil)
    }

    public func loadMore() async {
        guard hasMore, !isLoading, let nextCursor else { return }
        await load(cursor: nextCursor)
    }

    /// A row was tapped: it is read (at once, and on the server through the outbox), and the screen to open
    /// is returned.
    @discardableResult
    public func open(_ group: NotificationGroup) async -> NotificationRoute {
        await analytics?.track("notification_open", properties: ["type": group.type.rawValue])
        if group.unread { await change(.markNotificationGroupRead(group.groupKey)) }
        return NotificationRoute(group)
    }

    /// "Mark all read": every notification up to the newest shown (one that arrives meanwhile stays unread).
    public func markAllRead() async {
        await change(.markNotificationsRead(upTo: groups.first?.mostRecentNotificationID))
    }

    /// Swiped away: the row leaves the inbox here and on the server.
    public func archive(_ group: NotificationGroup) async {
        await change(.archiveNotificationGroup(group.groupKey))
    }

    /// A push on the person's `user:<id>` topic: a notification's group goes to the top, the badge takes the
    /// server's counts. Other pushes are not the inbox's.
    public func receive(_ push: RealtimePush) async {
        do {
            switch push {
            case .notification(let group): try await database.saveLive(group)
            case .unreadCount(let counts): try await database.saveInboxCounts(counts)
            default: return
            }
            await showStored()
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    private func markSeen() async {
        guard unseenCount > 0, let newest = groups.first?.mostRecentNotificationID else { return }
        await change(.markNotificationsSeen(upTo: newest))
    }

    /// Shows a mark or an archive at once (kept rows and the queued action in one transaction), then sends it;
    /// a refusal for good is dropped with the server's words, and the next page from the server shows the truth.
    private func change(_ action: Action) async {
        do {
            let queued = try await outbox.markInbox(action)
            await showStored()
            for outcome in await outbox.drain() {
                guard case .refused(let refused, let problem) = outcome, refused.id == queued.id else { continue }
                try await outbox.discard(refused.id)
                errorMessage = problem.detail ?? problem.title
                await load(cursor: nil)
                return
            }
            await showStored()
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    private func load(cursor: String?) async {
        isLoading = true
        defer { isLoading = false }
        do {
            let page = try await client.notifications(cursor: cursor)
            try await database.saveInbox(page.items, firstPage: cursor == nil)
            if cursor == nil { try await database.saveInboxCounts(try await client.notificationCounts()) }
            nextCursor = page.nextCursor
            hasMore = page.nextCursor != nil
            errorMessage = nil
            await showStored()
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    /// Starts following the database, after showing what it holds now.
    private func observe() async {
        guard observation == nil else { return }
        await showStored()
        let values = database.observeInbox()
        observation = Task { [weak self] in
            do {
                for try await value in values { self?.show(value) }
            } catch {
                self?.errorMessage = FeedViewModel.message(error)
            }
        }
    }

    private func showStored() async {
        do {
            show(try await database.readInbox())
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    private func show(_ read: Revisioned<KeptInbox>) {
        guard let inbox = shown.newer(read) else { return }
        groups = inbox.groups
        unreadCount = inbox.counts?.unread ?? 0
        unseenCount = inbox.counts?.unseen ?? 0
    }
}
