import Foundation
import SpotterModels
import SpotterNostr

/// Something that happened in the domain that live clients should hear about. Events carry ids only: each
/// receiver loads what its own viewer may see, so privacy is decided where the data is read, never in the
/// event itself, and a payload stays far below PostgreSQL's NOTIFY limit.
public enum DomainEvent: Codable, Sendable, Equatable {
    case postCreated(PostID, author: UserID)
    case postUpdated(PostID, author: UserID)
    case postDeleted(PostID, author: UserID)
    case kudosChanged(PostID)
    case commentsChanged(PostID)
    /// A notification reached a person's inbox: their live sessions get it and the new unread count.
    case notificationCreated(NotificationID, recipient: UserID)
    /// A person read, saw or archived notifications: their live sessions get the new counts.
    case notificationCountsChanged(UserID)
    /// Logins of a person ended (a sign-out, a password change, a reused refresh token, a suspension): the
    /// sockets those logins opened close, on every node.
    case loginsRevoked(UserID, RevokedLogins)
    /// Two people's relationship changed (a follow, a block, either way): what each sees of the other live,
    /// such as presence, is decided again.
    case relationshipChanged(UserID, UserID)
    /// The relay stored an event (or passed an ephemeral one on): every node's relay hands it to the live
    /// subscriptions it matches. Small events travel inline; a larger one is read back by id.
    case nostrEventStored(NostrEventID, inline: String?)
    /// A person stopped being a member of a group (left, removed, banned, or the group was deleted): their
    /// sockets leave the group's topic at once, on every node.
    case groupAccessEnded(GroupID, UserID)

    /// The post the event is about, if it is about one.
    public var postID: PostID? {
        switch self {
        case .postCreated(let id, _), .postUpdated(let id, _), .postDeleted(let id, _), .kudosChanged(let id),
            .commentsChanged(let id):
            id
        case .notificationCreated, .notificationCountsChanged, .loginsRevoked, .relationshipChanged,
            .nostrEventStored, .groupAccessEnded:
            nil
        }
    }
}

/// Which logins of a person were revoked: a socket belongs to a login (its token's family) and closes with it.
public enum RevokedLogins: Codable, Sendable, Equatable {
    /// These logins (a sign-out, a reused refresh token, a password change's other logins).
    case logins(Set<UUID>)
    /// Every login (a suspension: none of them may open a socket until the account is reinstated).
    case all

    /// Whether a socket opened by login `family` is one of these.
    public func covers(_ family: UUID) -> Bool {
        switch self {
        case .logins(let families): families.contains(family)
        case .all: true
        }
    }
}

/// The pub/sub port: domain events leave SpotterCore through it. One node uses `InProcessEventBus`; several
/// nodes sharing PostgreSQL use an adapter that crosses nodes (LISTEN/NOTIFY).
public protocol EventBus: Sendable {
    /// Hands an event to every subscriber (on every node, for adapters that span nodes). Inside a unit of work
    /// (`SpotterStorage.write`) it waits for the commit: implementations start with `heldForCommit(event)`.
    func publish(_ event: DomainEvent) async
    /// Every event published from now on, in publication order (per publisher).
    func subscribe() -> AsyncStream<DomainEvent>
}

/// Pub/sub within one process. Subscribers are the server's own realtime hub, which drains its stream at
/// once, so the stream is unbounded here; the bounded buffers that protect against slow clients sit per
/// socket, behind the hub.
public final class InProcessEventBus: EventBus, @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [UUID: AsyncStream<DomainEvent>.Continuation] = [:]

    public init() {}

    public func publish(_ event: DomainEvent) async {
        if heldForCommit(event) { return }
        let targets = lock.withLock { Array(subscribers.values) }
        for continuation in targets { continuation.yield(event) }
    }

    public func subscribe() -> AsyncStream<DomainEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: DomainEvent.self)
        let id = UUID()
        lock.withLock { subscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.subscribers.removeValue(forKey: id) }
        }
        return stream
    }
}
