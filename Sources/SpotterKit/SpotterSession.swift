import Foundation
import SpotterModels

/// Everything a signed-in app needs, wired the way the seeds wire it: the API client, the live connection,
/// and one client database (`AppDatabase`, `spotter.sqlite` under `folder`) holding the outbox, the caches
/// and analytics, which the screens observe, and the posts with photos on their way. Call `foreground()`,
/// `background()` and `signOut()` from the app's lifecycle; the session drains the outbox on foreground, on
/// every reconnect and every 60 s, and flushes analytics on background.
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
    public nonisolated let cache: SpotterCache
    public nonisolated let realtime: RealtimeClient
    public nonisolated let analytics: AnalyticsTracker
    private var periodic: [Task<Void, Never>] = []
    private var watching = false
    /// The APNs token this phone registered in this session, forgotten on the server at sign-out so the next
    /// person signed in here gets none of this one's pushes.
    private var pushToken: String?

    /// - Parameters:
    ///   - folder: where the database file goes (`spotter.sqlite`); nil keeps it in memory. A session opened
    ///     later on the same folder shows what this one kept, with or without a network.
    ///   - retry: how the API client tries requests again.
    public init(
        baseURL: URL, folder: URL?, tokens: any TokenStore, transport: any HTTPTransport = URLSessionTransport(),
        retry: RetryPolicy = RetryPolicy(), analyticsContext: AnalyticsContext = AnalyticsContext()
    ) throws {
        if let folder { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let client = SpotterClient(baseURL: baseURL, tokens: tokens, transport: transport, retry: retry)
        self.client = client
        database = try AppDatabase(path: folder?.appendingPathComponent("spotter.sqlite").path)
        if let folder { database.takeOverEarlierFiles(in: folder) }  // what an earlier version queued still goes
        outbox = ActionQueue(database: database, client: client)
        let analytics = AnalyticsTracker(database: database, client: client, context: analyticsContext)
        self.analytics = analytics
        uploads = UploadQueue(database: database, client: client, analytics: analytics)
        nostr = NostrPublisher(database: database, server: baseURL)
        cache = SpotterCache(database: database, client: client)
        realtime = RealtimeClient(baseURL: baseURL) { try await client.currentAccessToken() }
    }

    /// The app is in front: connect, send what waits, and keep doing so.
    public func foreground() async {
        if periodic.isEmpty { await analytics.track("app_foreground") }
        await startWatchingConnection()
        await realtime.start()
        guard periodic.isEmpty else { return }
        let (outbox, uploads, analytics, nostr) = (self.outbox, self.uploads, self.analytics, self.nostr)
        periodic = [
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

    /// Ends the session here and on the server, and stops everything.
    public func signOut() async {
        if let pushToken { try? await client.removePushDevice(token: pushToken) }
        pushToken = nil
        stopPeriodic()
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
        await realtime.onConnected {
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
