import Foundation
import Logging
import SpotterModels

/// The storage port: everything SpotterCore needs from a database.
///
/// One adapter per database implements it (`SpotterSQLite`, `SpotterPostgres`); both pass the same contract
/// suite, so a service never knows which one it runs on. Every method is safe to call concurrently from many
/// requests, and on PostgreSQL from many nodes at once.
public protocol SpotterStorage: Sendable {
    var accounts: any AccountStore { get }
    var tokens: any TokenStore { get }
    var accountLinks: any AccountLinkStore { get }
    var idempotency: any IdempotencyStore { get }
    var graph: any GraphStore { get }
    var posts: any PostStore { get }
    var search: any SearchStore { get }
    var templates: any TemplateStore { get }
    var analytics: any AnalyticsStore { get }
    var notifications: any NotificationStore { get }
    var pushAddresses: any PushAddressStore { get }
    var deliveries: any DeliveryQueue { get }
    var media: any MediaStore { get }
    var groups: any GroupStore { get }
    var children: any ChildProfileStore { get }
    /// End-to-end encrypted groups: chains, devices, wrapped keys and encrypted blobs.
    var e2e: any E2EStore { get }
    /// The relay's events, linked Nostr keys, their one-time values, and what imported events became.
    var nostr: any NostrStore { get }

    /// Runs `body` as one unit of work: every store call made inside it, by this task or the child tasks it
    /// starts, is one transaction that commits when `body` returns and rolls back when it throws, so a
    /// request's rows, kept counts, notifications, jobs and idempotency record exist together or not at all.
    /// Domain events published inside leave after the commit, and never for a unit that rolled back.
    ///
    /// Called inside a unit, it is a savepoint: a `body` that throws undoes only its own writes (and drops its
    /// events), and the unit goes on.
    ///
    /// ```swift
    /// let post = try await storage.write {
    ///     try await posts.create(request, author: author)  // the post, its counts, its notifications
    /// }
    /// ```
    ///
    /// Every mutating request runs in one (`UnitOfWorkMiddleware`, the socket, the relay). Outside a unit, each
    /// store call is its own: a read (a feed page) pays nothing for a unit it does not need.
    func write<T: Sendable>(_ body: () async throws -> T) async throws -> T

    /// Brings the schema up to date. Safe to run on every start and from several nodes at once.
    func migrate() async throws
    /// Answers when the database takes queries; `/readyz` calls it.
    func ping() async throws

    /// Runs `body` with the storage taking queries, for commands and tests outside the server's service group
    /// (PostgreSQL's pool must run; SQLite always takes them).
    func withRunning<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T

    /// The bus the nodes sharing this database hear each other's domain events on. A bus that must run
    /// (PostgreSQL's LISTEN) is also a `Service`; the composition root runs it.
    func makeEventBus(logger: Logger) -> any EventBus
}

extension SpotterStorage {
    public func withRunning<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await body()
    }

    /// One process alone hears only itself: a bus in memory.
    public func makeEventBus(logger: Logger) -> any EventBus { InProcessEventBus() }
}

/// Accounts and their credentials.
public protocol AccountStore: Sendable {
    /// Inserts a new account. Throws `StorageError.duplicate(field:)` when the username, email or Apple
    /// subject is taken, comparing username and email without regard to case.
    func create(_ account: AccountRecord) async throws
    func find(id: UserID) async throws -> AccountRecord?
    /// The accounts of `ids` that exist, in one read, in no particular order.
    func find(ids: [UserID]) async throws -> [AccountRecord]
    /// Finds the account whose username or email equals `login`, ignoring case.
    func find(login: String) async throws -> AccountRecord?
    func find(appleSubject: String) async throws -> AccountRecord?
    /// Links an Apple ID to an existing account.
    func setAppleSubject(_ subject: String, for id: UserID) async throws
    /// Replaces the display name and profile fields.
    func updateProfile(_ id: UserID, displayName: String, profile: ProfileFields) async throws
    func find(username: String) async throws -> AccountRecord?
    /// Suspends (a date) or reinstates (`nil`) an account.
    func setSuspended(_ id: UserID, at date: Date?) async throws
    func setRole(_ id: UserID, _ role: Role) async throws
    /// Replaces the bcrypt hash of the account's password.
    func setPasswordHash(_ id: UserID, _ hash: String) async throws
    /// Replaces the account's email. Throws `StorageError.duplicate(field: "email")` when another account
    /// has it, ignoring case.
    func setEmail(_ id: UserID, _ email: String) async throws
    /// Features (a date) or unfeatures (`nil`) an account in the Featured feed.
    func setFeatured(_ id: UserID, at date: Date?) async throws
}

/// Access and refresh tokens, by the SHA-256 of their text: the store never sees a token itself.
public protocol TokenStore: Sendable {
    func insert(_ token: TokenRecord) async throws
    func find(hash: String) async throws -> TokenRecord?
    /// A token and the account it belongs to (`nil` when the account is gone), in one read: every
    /// authenticated request asks for both.
    func findWithAccount(hash: String) async throws -> (TokenRecord, AccountRecord?)?
    /// Marks an unused refresh token used, atomically: of two concurrent calls for one token exactly one
    /// returns `true`. Returns `false` when the token was already used or revoked.
    func markUsed(hash: String, at date: Date) async throws -> Bool
    /// Revokes every token of a login (token family).
    func revokeFamily(_ family: UUID, at date: Date) async throws
    /// Revokes every token of the user's other logins, keeping the one of `family`; returns the logins it
    /// revoked (those that had a token left to revoke).
    @discardableResult
    func revokeFamilies(of user: UserID, except family: UUID, at date: Date) async throws -> Set<UUID>
    /// Deletes tokens that expired before `date`; returns how many.
    @discardableResult
    func deleteExpired(before date: Date) async throws -> Int
    /// The user's logins still in use at `date` (a refresh token neither used, revoked nor expired), the
    /// most recently active first, at most `limit`.
    func activeLogins(of user: UserID, at date: Date, limit: Int) async throws -> [LoginRecord]
    /// Keeps what a new login signed in from (its `User-Agent`, already cut short, and client address),
    /// for the security page; `deleteExpired` forgets it once the login has no tokens left.
    func recordLogin(_ family: UUID, of user: UserID, userAgent: String?, address: String?, at date: Date) async throws
}

/// One login (token family) as a person's security page lists it.
public struct LoginRecord: Sendable, Equatable {
    public var family: UUID
    /// When the person signed in.
    public var startedAt: Date
    /// When the login last got a token (a refresh, or a page's socket token).
    public var lastActiveAt: Date
    /// The `User-Agent` it signed in with; `nil` when unknown (logins from before these were kept).
    public var userAgent: String?
    /// The client address it signed in from: personal data, shown only to the account itself.
    public var address: String?

    public init(
        family: UUID, startedAt: Date, lastActiveAt: Date, userAgent: String? = nil, address: String? = nil
    ) {
        self.family = family
        self.startedAt = startedAt
        self.lastActiveAt = lastActiveAt
        self.userAgent = userAgent
        self.address = address
    }
}

/// A stored account.
public struct AccountRecord: Sendable, Equatable {
    public var id: UserID
    public var username: String
    public var email: String?
    /// bcrypt hash; `nil` for accounts that only sign in with Apple.
    public var passwordHash: String?
    public var displayName: String
    public var appleSubject: String?
    public var createdAt: Date
    public var profile: ProfileFields
    public var role: Role
    /// Set while an admin has suspended the account: it can't sign in and nothing of it shows.
    public var suspendedAt: Date?
    /// Set while an admin features the account: its public posts lead the Featured feed.
    public var featuredAt: Date?

    public init(
        id: UserID, username: String, email: String?, passwordHash: String?, displayName: String,
        appleSubject: String?, createdAt: Date, profile: ProfileFields = ProfileFields(), role: Role = .member,
        suspendedAt: Date? = nil, featuredAt: Date? = nil
    ) {
        self.id = id
        self.username = username
        self.email = email
        self.passwordHash = passwordHash
        self.displayName = displayName
        self.appleSubject = appleSubject
        self.createdAt = createdAt
        self.profile = profile
        self.role = role
        self.suspendedAt = suspendedAt
        self.featuredAt = featuredAt
    }

    /// The wire form the owner sees.
    public var account: Account {
        Account(
            id: id, username: username, email: email, displayName: displayName, createdAt: createdAt,
            bio: profile.bio, avatarURL: profile.avatarURL, units: profile.units, timeZone: profile.timeZone,
            privacy: profile.privacy, role: role)
    }

    public var summary: AuthorSummary {
        AuthorSummary(id: id, username: username, displayName: displayName, avatarURL: profile.avatarURL)
    }
}

/// What a person says about themselves and how they want to be seen.
public struct ProfileFields: Sendable, Equatable {
    public var bio: String
    public var avatarURL: String?
    public var units: Units
    /// An IANA time zone name; streaks and weekly progress are counted in it.
    public var timeZone: String
    public var privacy: Privacy

    public init(
        bio: String = "", avatarURL: String? = nil, units: Units = .kg, timeZone: String = "UTC",
        privacy: Privacy = .public
    ) {
        self.bio = bio
        self.avatarURL = avatarURL
        self.units = units
        self.timeZone = timeZone
        self.privacy = privacy
    }
}

/// Which kind of bearer a token is.
public enum TokenKind: String, Sendable {
    case access
    case refresh
}

/// A stored token. `family` is one login: every pair a refresh rotates into shares it, so one reused refresh
/// token can revoke them all.
public struct TokenRecord: Sendable, Equatable {
    public var hash: String
    public var userID: UserID
    public var family: UUID
    public var kind: TokenKind
    public var createdAt: Date
    public var expiresAt: Date
    public var usedAt: Date?
    public var revokedAt: Date?

    public init(
        hash: String, userID: UserID, family: UUID, kind: TokenKind, createdAt: Date, expiresAt: Date,
        usedAt: Date? = nil, revokedAt: Date? = nil
    ) {
        self.hash = hash
        self.userID = userID
        self.family = family
        self.kind = kind
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
        self.revokedAt = revokedAt
    }
}
