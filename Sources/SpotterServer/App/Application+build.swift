import Foundation
import Hummingbird
import HummingbirdAuth
import Logging
import ServiceLifecycle
import SpotterCore
import SpotterPostgres
import SpotterSQLite

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
    let apple: (any AppleIdentityVerifier)? = configuration.appleClientID.map {
        AppleJWKSVerifier(clientID: $0, jwksURL: configuration.appleJWKSURL)
    }
    // Several nodes on one PostgreSQL hear each other's events through LISTEN/NOTIFY; one SQLite node needs
    // no more than a bus in memory.
    let events: any EventBus
    var eventService: (any Service)?
    if let postgres = storage as? PostgresStorage {
        let bus = PostgresEventBus(client: postgres.client, channel: postgres.eventChannel, logger: logger)
        events = bus
        eventService = bus
    } else {
        events = InProcessEventBus()
    }
    let notifier = Notifier(storage: storage, clock: clock, events: events, logger: logger)
    let accounts = AccountService(
        storage: storage,
        hasher: BcryptPasswordHasher(cost: configuration.bcryptCost),
        clock: clock,
        throttle: SigninThrottle(limits: configuration.throttle, clock: clock),
        apple: apple,
        lifetimes: configuration.tokenLifetimes,
        notifier: notifier)
    let router = buildRouter(
        configuration: configuration, storage: storage, accounts: accounts, clock: clock, events: events,
        notifier: notifier)

    let hub = RealtimeHub(
        storage: storage, logger: logger, presenceInterval: configuration.realtime.presenceInterval,
        badgeInterval: configuration.realtime.badgeInterval)
    let socket = PhoenixSocket(
        accounts: accounts, hub: hub, access: TopicAccess(storage: storage), configuration: configuration.realtime,
        clock: clock)
    var app = Application(
        router: router,
        server: .http1PhoenixSocket(socket),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Spotter"),
        onServerRunning: { channel in
            logger.info("Spotter is listening", metadata: ["address": "\(channel.localAddress.map { "\($0)" } ?? "?")"])
        },
        logger: logger)
    if let service = storage as? any Service { app.addServices(service) }
    if let eventService { app.addServices(eventService) }
    app.addServices(RealtimeHubService(hub: hub, events: events, idleTimeout: configuration.realtime.idleTimeout))
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
                runner: DeliveryRunner(storage: storage, clock: clock, transport: transport, logger: logger),
                pollInterval: configuration.delivery.pollInterval, ready: databaseReady, logger: logger))
        app.addServices(
            ReminderService(
                sweep: ReminderSweep(storage: storage, notifier: notifier), clock: clock,
                interval: configuration.delivery.reminderInterval, ready: databaseReady, logger: logger))
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
    configuration: AppConfiguration, storage: any SpotterStorage, accounts: AccountService, clock: any WallClock,
    events: (any EventBus)? = nil, notifier: Notifier? = nil
) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    let maxBodySize = configuration.maxBodySize
    router.addMiddleware {
        RequestMetricsMiddleware()
        RequestIDMiddleware()
        AccessLogMiddleware()
        ProblemMiddleware()
        BodyLimitMiddleware(maxBodySize: maxBodySize)
    }
    router.addRoutes(OperationsController(storage: storage, metrics: SpotterMetrics.registry).endpoints)
    router.addRoutes(SocketFallbackController(accounts: accounts).endpoints)

    // The application passes the notifier its account service already uses; a router built alone makes one.
    let notifier =
        notifier ?? Notifier(storage: storage, clock: clock, events: events, logger: Logger(label: "spotter.notify"))
    let social = SocialService(storage: storage, clock: clock, notifier: notifier)
    let feeds = FeedService(storage: storage, clock: clock)
    let progress = ProgressService(storage: storage, clock: clock)
    let postService = PostService(
        storage: storage, clock: clock, configuration: configuration.postRules, events: events, notifier: notifier)
    let notifications = NotificationService(storage: storage, clock: clock, events: events)
    let users = UsersController(social: social, feeds: feeds, progress: progress)
    let posts = PostsController(posts: postService)
    let feedRoutes = FeedsController(feeds: feeds)
    let templateService = TemplateService(storage: storage, clock: clock)
    let templates = TemplatesController(templates: templateService)
    let auth = AuthController(accounts: accounts, trustForwardedFor: configuration.trustForwardedFor)

    let api = router.group("api/v1")
    api.addRoutes(auth.publicEndpoints, atPath: "auth")

    // Readable by anyone; a valid token makes the viewer known, an invalid one is still refused.
    let reading = api.group().add(middleware: BearerAuthenticator(accounts: accounts))
    reading.addRoutes(users.readEndpoints, atPath: "users")
    reading.addRoutes(posts.readEndpoints, atPath: "posts")
    reading.addRoutes(feedRoutes.readEndpoints, atPath: "feeds")
    reading.addRoutes(templates.exerciseReads, atPath: "exercises")
    reading.addRoutes(templates.workoutReads, atPath: "workout-templates")
    let search = SearchService(storage: storage)
    reading.addRoutes(SearchController(search: search).endpoints, atPath: "search")

    let signedIn = api.group()
        .add(middleware: BearerAuthenticator(accounts: accounts))
        .add(middleware: RequireSignedIn())
        .add(
            middleware: IdempotencyMiddleware(
                storage: storage, clock: clock, retention: configuration.idempotencyRetention))
    signedIn.addRoutes(auth.signedInEndpoints, atPath: "auth")
    signedIn.addRoutes(MeController(accounts: accounts).endpoints, atPath: "me")
    signedIn.addRoutes(users.requestEndpoints, atPath: "me/follow-requests")
    signedIn.addRoutes(users.signedInEndpoints, atPath: "users")
    signedIn.addRoutes(posts.signedInEndpoints, atPath: "posts")
    signedIn.addRoutes(feedRoutes.signedInEndpoints, atPath: "feeds")
    signedIn.addRoutes(templates.exerciseWrites, atPath: "exercises")
    signedIn.addRoutes(templates.workoutWrites, atPath: "workout-templates")
    signedIn.addRoutes(
        AdminController(admin: AdminService(storage: storage, clock: clock)).endpoints, atPath: "admin/users")
    signedIn.addRoutes(
        NotificationsController(
            notifications: notifications,
            webPushKey: configuration.delivery.webPush?.publicKeyBase64URL
        ).endpoints, atPath: "notifications")
    signedIn.addRoutes(
        AnalyticsController(analytics: AnalyticsService(storage: storage, clock: clock)).endpoints,
        atPath: "analytics")

    // The browser app at `/`, on the same services.
    WebApp(configuration: configuration, accounts: accounts, notifications: notifications).addRoutes(
        to: router, configuration: configuration, accounts: accounts,
        services: .init(
            clock: clock, posts: postService, feeds: feeds, social: social, progress: progress,
            notifications: notifications, search: search, templates: templateService))
    return router
}

/// Sets the request body limit from configuration on each request's context.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let maxBodySize: Int

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        var context = context
        context.maxBodySize = maxBodySize
        return try await next(request, context)
    }
}
