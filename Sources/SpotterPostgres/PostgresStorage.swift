import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import SpotterCore

/// The storage adapter for communities that outgrow one machine: several `spotter serve` nodes share one
/// PostgreSQL through a connection pool (PostgresNIO's `PostgresClient`).
///
/// The client is a `Service`: it must run (in the app's service group, or `withRunning` in tools and tests)
/// for queries to proceed.
public final class PostgresStorage: SpotterStorage, Service {
    public let client: PostgresClient
    /// What the stores go through: the pool and the unit of work (`write`).
    let database: PostgresDatabase
    let logger: Logger
    /// The NOTIFY channel of this database's domain events (tests give each schema its own).
    public let eventChannel: String

    public let accounts: any AccountStore
    public let tokens: any TokenStore
    public let accountLinks: any AccountLinkStore
    public let idempotency: any IdempotencyStore
    public let graph: any GraphStore
    public let posts: any PostStore
    public let search: any SearchStore
    public let templates: any TemplateStore
    public let analytics: any AnalyticsStore
    public let notifications: any NotificationStore
    public let pushAddresses: any PushAddressStore
    public let deliveries: any DeliveryQueue
    public let media: any MediaStore
    public let groups: any GroupStore
    public let children: any ChildProfileStore
    public let e2e: any E2EStore
    public let nostr: any NostrStore

    public init(configuration: PostgresClient.Configuration, logger: Logger, eventChannel: String = "spotter_events") {
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
        self.eventChannel = eventChannel
        let database = PostgresDatabase(client: client, logger: logger)
        self.database = database
        accounts = PostgresAccountStore(database: database, logger: logger)
        tokens = PostgresTokenStore(database: database, logger: logger)
        accountLinks = PostgresAccountLinkStore(database: database, logger: logger)
        idempotency = PostgresIdempotencyStore(database: database, logger: logger)
        graph = PostgresGraphStore(database: database, logger: logger)
        let postStore = PostgresPostStore(database: database, logger: logger)
        posts = postStore
        search = PostgresSearchStore(database: database, logger: logger, posts: postStore)
        templates = PostgresTemplateStore(database: database, logger: logger)
        analytics = PostgresAnalyticsStore(database: database, logger: logger)
        notifications = PostgresNotificationStore(database: database, logger: logger)
        pushAddresses = PostgresPushAddressStore(database: database, logger: logger)
        deliveries = PostgresDeliveryQueue(database: database, logger: logger)
        media = PostgresMediaStore(database: database, logger: logger)
        groups = PostgresGroupStore(database: database, logger: logger)
        children = PostgresChildProfileStore(database: database, logger: logger)
        e2e = PostgresE2EStore(database: database, logger: logger)
        nostr = PostgresNostrStore(database: database, logger: logger)
    }

    /// Reads a `postgres://user:password@host:port/database?sslmode=disable|prefer|require` URL.
    ///
    /// `queryConnections` is how many connections run queries at once (`defaultQueryConnections` when `nil`);
    /// the pool holds one more, which the event bus keeps listening.
    public convenience init(
        url: String, logger: Logger, eventChannel: String = "spotter_events", queryConnections: Int? = nil,
        configure: (inout PostgresClient.Configuration) -> Void = { _ in }
    ) throws {
        var configuration = try PostgresURL.configuration(from: url)
        configuration.options.maximumConnections = (queryConnections ?? Self.defaultQueryConnections) + 1
        configure(&configuration)
        self.init(configuration: configuration, logger: logger, eventChannel: eventChannel)
    }

    public func write<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await database.unitOfWork(body)
    }

    public func run() async throws {
        await client.run()
    }

    /// Twice this machine's processors. More connections than the database can run at once only make its
    /// processes take turns: with PostgreSQL and Spotter sharing one core, PostgresNIO's default pool of 20
    /// served fewer Following pages a second than a handful of connections did, and a single connection the
    /// most. A request that finds them all busy waits in the pool's queue.
    public static var defaultQueryConnections: Int { 2 * ProcessInfo.processInfo.activeProcessorCount }

    /// Runs `body` while the connection pool runs, for commands and tests outside a service group.
    ///
    /// `body` starts once the pool's task has begun: started side by side, `body`'s first query often came
    /// first, and PostgresNIO logged "run() hasn't been called yet" in `spotter seed` and `bench` (3 runs of 5).
    public func withRunning<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let (started, starting) = AsyncStream<Void>.makeStream()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                starting.finish()
                await self.client.run()
            }
            defer { group.cancelAll() }
            for await _ in started {}
            return try await body()
        }
    }

    /// Several nodes on one PostgreSQL hear each other's events through LISTEN/NOTIFY on `eventChannel`.
    public func makeEventBus(logger: Logger) -> any EventBus {
        PostgresEventBus(client: client, channel: eventChannel, logger: logger)
    }

    public func migrate() async throws {
        try await PostgresMigrations.run(on: client, logger: logger)
    }

    /// Applies the migrations that come before `migration`: the schema as an older Spotter left it, for tests
    /// of what a later migration does to its data.
    public func migrate(before migration: String) async throws {
        try await PostgresMigrations.run(on: client, logger: logger, before: migration)
    }

    public func ping() async throws {
        try await client.query("SELECT 1", logger: logger)
    }
}

/// Turns PostgreSQL's unique violations (SQLSTATE 23505) into `StorageError.duplicate`, naming the wire field.
@discardableResult
func mappingConstraintErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
        let constraint = error.serverInfo?[.constraintName] ?? ""
        for (column, field) in [
            ("username_key", "username"), ("email_key", "email"), ("apple_subject", "apple_subject"),
        ]
        where constraint.contains(column) {
            throw StorageError.duplicate(field: field)
        }
        throw StorageError.duplicate(field: "id")
    }
}
