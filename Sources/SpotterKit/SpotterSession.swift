import Foundation
import SpotterModels

/// Everything a signed-in app needs, wired the way the seeds wire it: the API client, the outbox, the
/// caches, the live connection and analytics, each in its own file under `folder`. Call `foreground()`,
/// `background()` and `signOut()` from the app's lifecycle; the session drains the outbox on foreground, on
/// every reconnect and every 60 s, and flushes analytics on background.
///
/// ```swift
/// let session = try SpotterSession(baseURL: server, folder: cachesFolder, tokens: KeychainTokenStore())
/// try await session.client.signIn(login: "ana", password: password)
/// await session.foreground()
/// let feed = FeedViewModel(kind: .following, client: session.client, outbox: session.outbox)
/// ```
public actor SpotterSession {
    public nonisolated let client: SpotterClient
    public nonisolated let outbox: ActionQueue
    public nonisolated let cache: SpotterCache
    public nonisolated let realtime: RealtimeClient
    public nonisolated let analytics: AnalyticsTracker
    private var periodic: [Task<Void, Never>] = []
    private var watching = false

    /// - Parameter folder: where the outbox, cache and analytics files go; nil keeps them in memory.
    public init(
        baseURL: URL, folder: URL?, tokens: any TokenStore, transport: any HTTPTransport = URLSessionTransport()
    ) throws {
        if let folder { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        func file(_ name: String) -> String? { folder?.appendingPathComponent(name).path }
        let client = SpotterClient(baseURL: baseURL, tokens: tokens, transport: transport)
        self.client = client
        outbox = try ActionQueue(path: file("outbox.sqlite"), client: client)
        cache = try SpotterCache(path: file("cache.sqlite"), client: client)
        analytics = try AnalyticsTracker(path: file("analytics.sqlite"), client: client)
        realtime = RealtimeClient(baseURL: baseURL) { try await client.currentAccessToken() }
    }

    /// The app is in front: connect, send what waits, and keep doing so.
    public func foreground() async {
        await startWatchingConnection()
        await realtime.start()
        guard periodic.isEmpty else { return }
        let (outbox, analytics) = (self.outbox, self.analytics)
        periodic = [
            Task { await outbox.runPeriodically(every: .seconds(60)) },
            Task { await analytics.runPeriodically(every: .seconds(30)) },
        ]
    }

    /// The app went to the background: close the socket, send analytics while there is time.
    public func background() async {
        stopPeriodic()
        await realtime.background()
        await analytics.flush()
    }

    /// Ends the session here and on the server, and stops everything.
    public func signOut() async {
        stopPeriodic()
        await realtime.signOut()
        await analytics.flush()
        try? await client.signOut()
    }

    /// Drains the outbox each time the socket (re)connects: the network is back.
    private func startWatchingConnection() async {
        guard !watching else { return }
        watching = true
        let outbox = self.outbox
        await realtime.onConnected { _ = await outbox.drain() }
    }

    private func stopPeriodic() {
        for task in periodic { task.cancel() }
        periodic = []
    }
}
