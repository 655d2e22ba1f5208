import Foundation
import SpotterModels
import SpotterNostr

/// The relay's storage port: Nostr events, the keys people linked to their accounts, one-time challenges, and
/// which Spotter post or template each imported event became.
///
/// Events are stored as NIP-01 says a relay keeps them: replaceable kinds (0, 3, 10000–19999) only the newest
/// per author, addressable kinds (30000–39999) only the newest per author and `d` tag (ties: the lowest id
/// wins), ephemeral kinds never. Every single-letter tag is indexed for `#x` filters.
///
/// Reads decide visibility in the query, so no event leaves that Spotter's privacy would hide: an event whose
/// author key is linked to an account shows only while that account is in good standing (not suspended), has a
/// public profile, and has not blocked the reader; hidden events (deleted, or whose post is no longer public)
/// never show. Events of keys linked to no account (an `open` relay) show to everyone.
public protocol NostrStore: Sendable {
    /// Stores a valid event (its id and signature already checked) from `author`, the account its key is
    /// linked to if any.
    func save(_ event: NostrEvent, author: UserID?, receivedAt: Date) async throws -> NostrSaveOutcome

    /// The stored events matching any of `filters` that `reader` may see, newest first (`created_at`
    /// descending, then lowest id first), each filter contributing at most `min(its limit, limitCap)` events,
    /// with no event twice. `search` filters (NIP-50) go through a full-text index over content.
    func query(_ filters: [NostrFilter], reader: NostrReader, limitCap: Int) async throws -> [NostrEvent]

    /// How many stored events match any of `filters` that `reader` may see (NIP-45), each counted once.
    func count(_ filters: [NostrFilter], reader: NostrReader) async throws -> Int

    /// One event by id, whatever its visibility, with what the store knows about it; `nil` when not stored.
    func find(_ id: NostrEventID) async throws -> StoredNostrEvent?

    /// Applies a NIP-09 deletion request (kind 5) that is already stored: hides the events its `e` tags name
    /// and the versions of the addresses its `a` tags name created up to the request's `created_at`, of the
    /// request's own author only. Returns the ids it hid.
    func applyDeletion(_ deletion: NostrEvent) async throws -> [NostrEventID]

    /// Hides an event (its post was deleted or made non-public in Spotter) or shows it again.
    func setHidden(_ id: NostrEventID, _ hidden: Bool) async throws

    // MARK: Linked keys

    /// Links `key` to `user`. Throws `StorageError.duplicate(field: "pubkey")` when the key is linked to any
    /// account already (this one included).
    func link(_ key: NostrPublicKey, to user: UserID, at date: Date) async throws
    /// Unlinks `key` from `user`; `false` when it was not linked to them.
    func unlink(_ key: NostrPublicKey, from user: UserID) async throws -> Bool
    func keys(of user: UserID) async throws -> [LinkedNostrKey]
    /// The account `key` is linked to.
    func owner(of key: NostrPublicKey) async throws -> UserID?

    // MARK: One-time values

    /// Keeps a challenge (stored as the SHA-256 of its text) for `user` until `expiresAt`.
    func insertChallenge(hash: String, user: UserID, expiresAt: Date) async throws
    /// Uses a challenge once: returns its user when it exists and has not expired at `date`, and deletes it
    /// either way, so of two concurrent calls at most one gets the user.
    func consumeChallenge(hash: String, at date: Date) async throws -> UserID?
    /// Records that a NIP-98 authorization event was used, until `expiresAt` (after which its `created_at` is
    /// too old to pass anyway). Returns `false` when it was already used: a replay.
    func markAuthorizationUsed(_ id: NostrEventID, expiresAt: Date) async throws -> Bool
    /// Forgets used authorizations and challenges that expired before `date`.
    func deleteExpiredOneTimeValues(before date: Date) async throws

    // MARK: Imports

    /// Records what an event became in Spotter. Throws `StorageError.duplicate(field: "event_id")` when the event
    /// was imported already: the event id is the import's idempotency key.
    func recordImport(_ record: NostrImport) async throws
    func importRecord(of event: NostrEventID) async throws -> NostrImport?
    /// The imports whose Spotter object is `target` (a post edited in Spotter hides or shows its events).
    func imports(of target: NostrImport.Target) async throws -> [NostrImport]
}

/// What `NostrStore.save` did.
public enum NostrSaveOutcome: Sendable, Equatable {
    /// Stored; for replaceable and addressable kinds, the older versions it replaced (now gone).
    case stored(replaced: [NostrEventID])
    /// The same id is stored already.
    case duplicate
    /// A newer version of this replaceable or addressable event is stored; this one was not kept.
    case superseded
    /// A deletion request of its author already covers it; not kept.
    case deleted
}

/// Who is reading the relay: nobody known, or the account of a NIP-42-authenticated key.
public struct NostrReader: Sendable, Equatable {
    public var user: UserID?
    public init(user: UserID?) { self.user = user }
    public static let anonymous = NostrReader(user: nil)
}

/// A stored event and what the store knows of it.
public struct StoredNostrEvent: Sendable, Equatable {
    public var event: NostrEvent
    public var author: UserID?
    public var hidden: Bool
    public var receivedAt: Date

    public init(event: NostrEvent, author: UserID?, hidden: Bool, receivedAt: Date) {
        self.event = event
        self.author = author
        self.hidden = hidden
        self.receivedAt = receivedAt
    }
}

/// A key linked to an account.
public struct LinkedNostrKey: Sendable, Equatable {
    public var pubkey: NostrPublicKey
    public var user: UserID
    public var linkedAt: Date

    public init(pubkey: NostrPublicKey, user: UserID, linkedAt: Date) {
        self.pubkey = pubkey
        self.user = user
        self.linkedAt = linkedAt
    }
}

/// What an event became in Spotter.
public struct NostrImport: Sendable, Equatable {
    public enum Target: Sendable, Equatable, Hashable {
        case post(PostID)
        case exerciseTemplate(ExerciseTemplateID)
        case workoutTemplate(WorkoutTemplateID)
        case kudos(PostID, by: UserID)
        case comment(PostID, CommentID)
        /// An event that was handled (a deletion, a contact list) but made nothing of its own.
        case none
    }

    public var eventID: NostrEventID
    public var target: Target
    public var importedAt: Date

    public init(eventID: NostrEventID, target: Target, importedAt: Date) {
        self.eventID = eventID
        self.target = target
        self.importedAt = importedAt
    }
}
