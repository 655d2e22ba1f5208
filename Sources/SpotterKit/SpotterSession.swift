import Foundation
import SpotterModels

/// Everything a signed-in app needs, wired the way the seeds wire it: the API client, the live connection,
/// and one client database (`AppDatabase`, `spotter.sqlite` under `folder`) holding the outbox, the caches
/// and analytics, which the screens observe, and the posts with photos on their way. Call `foreground()`,
/// `background()` and `signOut()` from the app's lifecycle; the session drains the outbox on foreground, on
/// every reconnect and every 60 s, flushes analytics on background, and keeps the cache within its rules
/// (`CachePolicy`, `maintain()`).
///
/// ```swift
/// let session = try SpotterSession(baseURL: server, folder: cachesFolder, tokens: KeychainTokenStore())
/// try await session.client.signIn(login: "ana", password: password)
/// await session.foreground()
/// let feed = FeedViewModel(kind: .following, session: session)   // the kept feed at once, then fresh
/// ```
public actor SpotterSession {
    public nonisolated let client: SpotterClient
    /// The client's one database: outbox, caches and analytics.
    public nonisolated let database: AppDatabase
    public nonisolated let outbox: ActionQueue
    /// Posts with photos on their way (`UploadQueue`), drained with the outbox.
    public nonisolated let uploads: UploadQueue
    /// Signed Nostr events on their way to Spotter's relay and the person's others (`NostrPublisher`),
    /// drained with the outbox.
    public nonisolated let nostr: NostrPublisher
    public nonisolated let realtime: RealtimeClient
    public nonisolated let analytics: AnalyticsTracker
    /// Connectivity and the sign-in state (`SessionStatus`), fed by the client, the socket and, on Apple
    /// platforms, the device's network path.
    let tracker: StatusTracker
    #if canImport(Network)
    private let pathMonitor: PathMonitor
    #endif
    private var periodic: [Task<Void, Never>] = []
    /// The last comeback caught up, and the catching up under way.
    private var caughtUp = 0
    private var catchingUp: Task<Void, Never>?
    private var watching = false
    /// The APNs token this phone registered in this session, forgotten on the server at sign-out so the next
    /// person signed in here gets none of this one's pushes.
    private var pushToken: String?

    /// - Parameters:
    ///   - folder: where the database file goes (`spotter.sqlite`); nil keeps it in memory. A session opened
    ///     later on the same folder shows what this one kept, with or without a network.
    ///   - retry: how the API client tries requests again.
    ///   - cachePolicy: the cache rules the client database and the screens apply (the POWR seed's).
    ///   - now: the clock those rules age things by.
    ///   - photos: how photos are made ready before they are queued (ImageIO's on Apple platforms).
    public init(
        baseURL: URL, folder: URL?, tokens: any TokenStore, transport: any HTTPTransport = URLSessionTransport(),
        retry: RetryPolicy = RetryPolicy(), analyticsContext: AnalyticsContext = AnalyticsContext(),
        cachePolicy: CachePolicy = CachePolicy(), now: @escaping @Sendable () -> Date = Date.init,
        photos: (any PhotoPreparing)? = PhotoPreparation.platformDefault
    ) throws {
        if let folder { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let tracker = StatusTracker()
        self.tracker = tracker
        let client = SpotterClient(
            baseURL: baseURL, tokens: tokens, transport: transport, retry: retry, events: tracker)
        self.client = client
        database = try AppDatabase(
            path: folder?.appendingPathComponent("spotter.sqlite").path, policy: cachePolicy, now: now)
        if let folder { database.takeOverEarlierFiles(in: folder) }  // what an earlier version queued still goes
        outbox = ActionQueue(database: database, client: client)
        let analytics = AnalyticsTracker(database: database, client: client, context: analyticsContext)
        self.analytics = analytics
        uploads = UploadQueue(database: database, client: client, analytics: analytics, photos: photos)
        nostr = NostrPublisher(database: database, server: baseURL)
        realtime = RealtimeClient(baseURL: baseURL) { try await client.currentAccessToken() }
        #if canImport(Network)
        pathMonitor = PathMonitor { tracker.connectivityDid(.path(satisfied: $0)) }
        #endif
        tracker.onCameBack = { [weak self] number in Task { await self?.networkCameBack(number) } }
    }

    /// Connectivity, the sign-in state and who is signed in, now.
    public nonisolated var status: SessionStatus { tracker.status }

    /// The status now and at every change, for a screen (`SessionStatusViewModel`).
    public nonisolated func statusUpdates() -> AsyncStream<SessionStatus> { tracker.updates() }

    /// The network is back (a request got through, the socket opened, the path is satisfied): what waits goes
    /// at once, and the inbox and the Following feed refresh, since what happened meanwhile was not pushed.
    /// Each comeback is caught up once, whoever noticed it first.
    private func networkCameBack(_ number: Int) {
        guard number > caughtUp else { return }
        caughtUp = number
        let previous = catchingUp
        catchingUp = Task {
            await previous?.value
            _ = await outbox.drain(ignoringBackoff: true)
            _ = await uploads.drain(ignoringBackoff: true)
            _ = await nostr.drain(ignoringBackoff: true)
            _ = await refreshInBackground(feeds: [.following])
        }
    }

    /// "Retry" on the offline banner: tries the server now; if it answers, the network is back, and this
    /// returns once what waited was sent and the feed refreshed. If not, the banner stays.
    public func retryNow() async {
        _ = try? await client.notificationCounts()
        networkCameBack(tracker.comebackCount)
        await catchingUp?.value
    }

    /// The app is in front: connect, send what waits, and keep doing so; clean the cache once a day.
    public func foreground() async {
        if periodic.isEmpty { await analytics.track("app_foreground") }
        tracker.restored(hasSession: await client.isSignedIn, account: nil)
        await startWatchingConnection()
        await realtime.start()
        guard periodic.isEmpty else { return }
        let (outbox, uploads, analytics, nostr) = (self.outbox, self.uploads, self.analytics, self.nostr)
        periodic = [
            Task { [weak self] in
                while !Task.isCancelled {
                    _ = await self?.maintain()
                    try? await Task.sleep(for: .seconds(3600))
                }
            },
            Task { await outbox.runPeriodically(every: .seconds(60)) },
            Task { await uploads.runPeriodically(every: .seconds(60)) },
            Task { await nostr.runPeriodically(every: .seconds(60)) },
            Task { await analytics.runPeriodically(every: .seconds(30)) },
        ]
    }

    /// The app went to the background: close the socket, send analytics while there is time.
    public func background() async {
        stopPeriodic()
        await realtime.background()
        await analytics.track("app_background")
        await analytics.flush()
    }

    /// Registers the APNs device token the app was given (hex), so this person's pushes reach this phone.
    public func registerForPushes(token: String) async throws {
        try await client.registerPushDevice(token: token)
        pushToken = token
    }

    /// The cache's upkeep (`CachePolicy`): learns who is signed in when it does not know yet (their posts are
    /// never cleaned up; until it knows, nothing is), then cleans up if a day has passed since the last time.
    /// Runs on foreground and hourly while in front; returns what it removed, nil when nothing was due.
    @discardableResult
    public func maintain() async -> CacheCleanUp? {
        if (try? await database.me()) == nil, let account = try? await client.me() {
            try? await database.saveMe(account)
        }
        return try? await database.cleanUpIfDue()
    }

    /// Ends the session here and on the server, and stops everything. What the client database kept for this
    /// person goes (feeds, posts, profiles, the inbox, and changes still queued, which would otherwise go out
    /// with the next person's token).
    public func signOut() async {
        if let pushToken { try? await client.removePushDevice(token: pushToken) }
        pushToken = nil
        stopPeriodic()
        _ = await outbox.drain(ignoringBackoff: true)  // what can still land does, with this person's token
        try? await database.forgetPerson()
        await realtime.signOut()
        await analytics.flush()
        try? await nostr.setLinkedKey(nil)  // the next person signed in here has their own key, or none
        try? await client.signOut()
    }

    /// Drains the outbox each time the socket (re)connects: the network is back, so what waits goes at once,
    /// without waiting out its backoff.
    private func startWatchingConnection() async {
        guard !watching else { return }
        watching = true
        let (outbox, uploads, nostr) = (self.outbox, self.uploads, self.nostr)
        let tracker = self.tracker
        await realtime.onConnected {
            tracker.connectivityDid(.socketOpened)
            _ = await outbox.drain(ignoringBackoff: true)
            _ = await uploads.drain(ignoringBackoff: true)
            _ = await nostr.drain(ignoringBackoff: true)
        }
    }

    private func stopPeriodic() {
        for task in periodic { task.cancel() }
        periodic = []
    }
}
