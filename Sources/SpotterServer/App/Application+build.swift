import Foundation
import Hummingbird
import HummingbirdAuth
import Logging
import ServiceLifecycle
import SpotterCore

/// Builds the whole server: storage, services, middleware and routes, in one place.
///
/// The storage and clock are parameters so tests can run the real app against a temporary SQLite file or a
/// throwaway PostgreSQL schema, with a clock they move by hand.
public func buildApplication(
    configuration: AppConfiguration,
    storage: any SpotterStorage,
    clock: any WallClock = SystemClock(),
    logger: Logger
) async throws -> some ApplicationProtocol {
    // Several nodes on one PostgreSQL hear each other's events through LISTEN/NOTIFY; one SQLite node needs
    // no more than a bus in memory. The storage says which.
    let events = storage.makeEventBus(logger: logger)
    let blobs = try configuredBlobStore(configuration)
    let services = AppServices(
        configuration: configuration, storage: storage, clock: clock, events: events, blobs: blobs, logger: logger)
    let router = buildRouter(configuration: configuration, storage: storage, services: services, blobs: blobs)

    let hub = RealtimeHub(
        storage: storage, notifications: services.notifications, logger: logger,
        presenceInterval: configuration.realtime.presenceInterval,
        badgeInterval: configuration.realtime.badgeInterval, links: services.media.links, clock: clock)
    let socket = PhoenixSocket(
        accounts: services.accounts, hub: hub, access: TopicAccess(storage: storage, links: services.media.links),
        configuration: configuration.realtime,
        clock: clock)
    let relayHub = NostrRelayHub(relay: services.relay, logger: logger)
    let relay = NostrRelaySocket(
        relay: services.relay, hub: relayHub,
        publicRelayURL: configuration.publicURL.map { _ in configuration.relayURL },
        outboundBuffer: configuration.realtime.outboundBuffer, closeGrace: configuration.realtime.slowConsumerGrace)
    var app = Application(
        router: router,
        server: .http1PhoenixSocket(socket, relay: relay, limits: configuration.connections),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Spotter"),
        onServerRunning: { channel in
            logger.info("Spotter is listening", metadata: ["address": "\(channel.localAddress.map { "\($0)" } ?? "?")"])
        },
        logger: logger)
    if let service = storage as? any Service { app.addServices(service) }
    if let service = blobs as? any Service { app.addServices(service) }
    if let service = events as? any Service { app.addServices(service) }
    app.addServices(RealtimeHubService(hub: hub, events: events, idleTimeout: configuration.realtime.idleTimeout))
    app.addServices(NostrRelayHubService(hub: relayHub, events: events))
    let databaseReady = ReadinessGate()
    app.beforeServerStarts {
        try await storage.migrate()
        databaseReady.open()
        logger.info("database ready", metadata: ["storage": "\(type(of: storage))"])
    }
    if configuration.delivery.runsQueue {
        let transport =
            try configuration.delivery.transport ?? ChannelTransport(channels: configuration.delivery.channels())
        app.addServices(
            DeliveryService(
                runner: DeliveryRunner(
                    storage: storage, clock: clock, transport: transport, logger: logger,
                    inbox: services.notifications),
                pollInterval: configuration.delivery.pollInterval, ready: databaseReady, logger: logger))
        app.addServices(
            ReminderService(
                sweep: ReminderSweep(storage: storage, notifier: services.notifier), clock: clock,
                interval: configuration.delivery.reminderInterval, ready: databaseReady, logger: logger))
    }
    if configuration.media.runsProcessing {
        app.addServices(
            MediaProcessingService(
                media: services.media, sealedBlobs: services.sealedBlobs, wake: services.mediaWake,
                pollInterval: configuration.media.pollInterval,
                sweepInterval: configuration.media.sweepInterval, ready: databaseReady, logger: logger))
    }
    if configuration.runsMaintenance {
        app.addServices(
            MaintenanceService(
                storage: storage, clock: clock, idempotencyRetention: configuration.idempotencyRetention,
                interval: .seconds(3600), logger: logger))
    }
    return app
}

/// The routes and the middleware around them. Order matters: metrics see every final status; the request id
/// is set before anything logs; problems are rendered inside the access log so it records their status.
func buildRouter(
    configuration: AppConfiguration, storage: any SpotterStorage, services: AppServices, blobs: any BlobStore
) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    let maxBodySize = configuration.maxBodySize
    // A photo's bytes, and a multipart body around them (its boundaries and small fields).
    let photoForm = configuration.media.limits.maxBytes + 64 * 1024
    // The web app's photo picker sends one photo to `/uploads`; the compose form without script sends its
    // photos with the post to `/compose`.
    let uploadBodies =
        configuration.mediaStorage.largerBodies + [
            ("/api/v1/media/direct", photoForm), ("/uploads", photoForm), ("/settings/avatar", photoForm),
            ("/compose", photoForm * MediaRules.maxPerPost),
        ]
    router.addMiddleware {
        RequestMetricsMiddleware()
        RequestIDMiddleware()
        AccessLogMiddleware()
        ProblemMiddleware()
        BodyLimitMiddleware(maxBodySize: maxBodySize, largerBodies: uploadBodies)
        UnitOfWorkMiddleware(storage: storage, fault: configuration.faultAfterHandler)
    }
    router.addRoutes(OperationsController(storage: storage, metrics: SpotterMetrics.registry).endpoints)
    let accounts = services.accounts
    router.addRoutes(SocketFallbackController(accounts: accounts).endpoints)
    router.addRoutes(
        NostrRelayInformation(relay: services.relay, name: configuration.nostr.name, relayURL: configuration.relayURL)
            .endpoints)

    let users = UsersController(social: services.social, feeds: services.feeds, progress: services.progress)
    let posts = PostsController(posts: services.posts)
    let feedRoutes = FeedsController(feeds: services.feeds)
    let templates = TemplatesController(templates: services.templates)
    let groups = GroupsController(groups: services.groups, feeds: services.feeds)
    let auth = AuthController(
        accounts: accounts, links: services.accountLinks, nostr: services.nostrAccounts,
        trustForwardedFor: configuration.trustForwardedFor)

    let api = router.group("api/v1")
    api.addRoutes(auth.publicEndpoints, atPath: "auth")

    // Readable by anyone; a valid token makes the viewer known, an invalid one is still refused.
    let reading = api.group().add(middleware: BearerAuthenticator(accounts: accounts))
    reading.addRoutes(users.readEndpoints, atPath: "users")
    reading.addRoutes(posts.readEndpoints, atPath: "posts")
    reading.addRoutes(feedRoutes.readEndpoints, atPath: "feeds")
    reading.addRoutes(templates.exerciseReads, atPath: "exercises")
    reading.addRoutes(templates.workoutReads, atPath: "workout-templates")
    reading.addRoutes(SearchController(search: services.search).endpoints, atPath: "search")
    reading.addRoutes(groups.readEndpoints, atPath: "groups")
    reading.addRoutes(groups.invitationPreview, atPath: "group-invitations")

    let signedIn = api.group()
        .add(middleware: BearerAuthenticator(accounts: accounts))
        .add(middleware: RequireSignedIn())
        .add(
            middleware: IdempotencyMiddleware(
                storage: storage, clock: services.clock, retention: configuration.idempotencyRetention))
    signedIn.addRoutes(auth.signedInEndpoints, atPath: "auth")
    signedIn.addRoutes(MeController(accounts: accounts, links: services.accountLinks).endpoints, atPath: "me")
    signedIn.addRoutes(users.requestEndpoints, atPath: "me/follow-requests")
    signedIn.addRoutes(users.restrictionEndpoints, atPath: "me")
    signedIn.addRoutes(groups.mine, atPath: "me")
    signedIn.addRoutes(ChildrenController(children: services.children).endpoints, atPath: "me")
    let e2e = E2EController(
        devices: services.devices, groups: services.encryptedGroups, blobs: services.sealedBlobs,
        posts: services.posts)
    signedIn.addRoutes(e2e.meEndpoints, atPath: "me")
    signedIn.addRoutes(e2e.chainEndpoints, atPath: "device-chains")
    signedIn.addRoutes(e2e.groupEndpoints, atPath: "groups")
    signedIn.addRoutes(e2e.postEndpoints, atPath: "posts")
    signedIn.addRoutes(groups.signedInEndpoints, atPath: "groups")
    signedIn.addRoutes(users.signedInEndpoints, atPath: "users")
    signedIn.addRoutes(posts.signedInEndpoints, atPath: "posts")
    signedIn.addRoutes(feedRoutes.signedInEndpoints, atPath: "feeds")
    signedIn.addRoutes(templates.exerciseWrites, atPath: "exercises")
    signedIn.addRoutes(templates.workoutWrites, atPath: "workout-templates")
    signedIn.addRoutes(AdminController(admin: services.admin).endpoints, atPath: "admin/users")
    signedIn.addRoutes(
        NotificationsController(
            notifications: services.notifications,
            webPushKey: configuration.delivery.webPush?.publicKeyBase64URL
        ).endpoints, atPath: "notifications")
    signedIn.addRoutes(AnalyticsController(analytics: services.analytics).endpoints, atPath: "analytics")
    signedIn.addRoutes(MediaController(media: services.media).endpoints, atPath: "media")
    signedIn.addRoutes(NostrKeysController(nostr: services.nostrAccounts).endpoints, atPath: "nostr")
    signedIn.addRoutes(NostrImportController(ingest: services.nostrIngest).endpoints, atPath: "nostr/import")
    router.addRoutes(MediaFilesController(media: services.media).endpoints, atPath: "media")
    if let local = blobs as? LocalBlobStore {
        addLocalBlobRoutes(
            to: router, store: local, clock: services.clock, maxUploadSize: configuration.mediaStorage.maxUploadSize)
    }

    // The browser app at `/`, on the same services.
    WebApp(configuration: configuration, services: services).addRoutes(to: router, configuration: configuration)
    // Last, after every route: it wraps only the router's not-found answer (see its documentation).
    router.add(middleware: MethodNotAllowedMiddleware(routes: RouteMethods(router.routes)))
    return router
}

/// Sets the request body limit from configuration on each request's context, and refuses a body declared
/// larger at once (413), before a byte of it is read: the connection guard then closes the connection rather
/// than read a body nobody wants.
///
/// Paths under one of `largerBodies`' prefixes (uploads: `/blobs/`) take that prefix's limit instead; the
/// longest matching prefix wins. It runs before routing, so a route group's middleware could not raise it.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let defaultMaxBodySize: Int
    let largerBodies: [(pathPrefix: String, maxBodySize: Int)]

    init(maxBodySize: Int, largerBodies: [(pathPrefix: String, maxBodySize: Int)] = []) {
        defaultMaxBodySize = maxBodySize
        self.largerBodies = largerBodies.sorted { $0.pathPrefix.count > $1.pathPrefix.count }
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let path = request.uri.path
        let maxBodySize = largerBodies.first { path.hasPrefix($0.pathPrefix) }?.maxBodySize ?? defaultMaxBodySize
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > maxBodySize {
            throw HTTPError(.contentTooLarge, message: "The body is larger than \(maxBodySize) bytes.")
        }
        var context = context
        context.maxBodySize = maxBodySize
        return try await next(request, context)
    }
}
