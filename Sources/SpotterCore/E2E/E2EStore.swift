import Foundation
import SpotterModels

/// What the server keeps of end-to-end encrypted groups (docs/encryption.md): statements as signed, wrapped
/// keys as sealed, and the few facts it derives from chains it has verified, so a request needs no replay.
///
/// The appends are compare-and-swap: each takes the chain's length it expects and answers `false`, changing
/// nothing, when another append came first; the adapters make the check and the write one step.
public protocol E2EStore: Sendable {
    // MARK: Device chains

    /// A person's device chain, in order.
    func deviceStatements(of user: UserID) async throws -> [E2EStatement]
    /// Appends `statement` as number `seq` of `user`'s chain and records `devices` (every device the verified
    /// chain now holds, revoked ones with when); `false` when the chain is not `seq` long.
    func appendDeviceStatement(
        _ statement: E2EStatement, hash: String, seq: Int, of user: UserID, devices: [E2EDeviceRecord]
    ) async throws -> Bool
    /// The devices of `users`, revoked ones too.
    func devices(of users: [UserID]) async throws -> [E2EDeviceRecord]
    func device(_ id: UUID) async throws -> E2EDeviceRecord?
    func recoveryKit(of user: UserID) async throws -> String?
    func setRecoveryKit(_ kit: String, of user: UserID, at date: Date) async throws

    // MARK: Group chains and keys

    /// The group's key facts; `nil` until its first statement.
    func keyState(of group: GroupID) async throws -> E2EGroupRecord?
    func groupStatements(of group: GroupID) async throws -> [E2EStatement]
    /// Appends `statements` from number `from` on, and records what the verified chain now says: its head,
    /// whether it keeps history, and its members. `false` when the chain is not `from` long.
    func appendGroupStatements(
        _ statements: [(statement: E2EStatement, hash: String)], to group: GroupID, from: Int, history: Bool,
        members: [UserID: GroupRole]
    ) async throws -> Bool
    /// The members by the chain, with their roles.
    func chainMembers(of group: GroupID) async throws -> [UserID: GroupRole]
    /// Starts epoch `number` with its key wrapped to each of `keys`' devices; `false` unless `number` is the one
    /// after the current epoch (0 when there is none).
    func startEpoch(_ number: Int, of group: GroupID, keys: [E2EDeviceKey]) async throws -> Bool
    /// Adds wrapped keys of existing epochs; a key already there for the same device and epoch stays.
    func addKeys(_ keys: [E2EEpochKey], in group: GroupID) async throws
    /// The wrapped keys `device` holds in `group`, oldest epoch first.
    func keys(of device: UUID, in group: GroupID) async throws -> [E2EEpochKey]
    /// The devices the current epoch's key is wrapped to.
    func currentHolders(of group: GroupID) async throws -> [E2EDeviceRecord]
    /// Deletes a (deleted) group's chain, epochs and wrapped keys.
    func forget(_ group: GroupID) async throws
    /// Deletes the sealed content of a deleted post and of its comments, or of one deleted comment: a tombstone
    /// keeps no ciphertext.
    func eraseSealed(post: PostID) async throws
    func eraseSealed(comment: CommentID) async throws

    // MARK: Encrypted blobs

    func insertBlob(_ blob: SealedBlobRecord) async throws
    func blob(_ id: UUID) async throws -> SealedBlobRecord?
    func markBlobReady(_ id: UUID) async throws
    /// Attaches `ids` to `post`: only blobs of `owner`'s in `group`, ready and not yet attached; answers how
    /// many were.
    func attachBlobs(_ ids: [UUID], to post: PostID, owner: UserID, group: GroupID) async throws -> Int
    /// Discards the blobs of `post` (deleted) or of `group` (deleted) for the sweep.
    func discardBlobs(of post: PostID, at date: Date) async throws
    func discardBlobs(in group: GroupID, at date: Date) async throws
    /// Blobs no post took before `staleBefore`, and discarded ones: what the sweep removes.
    func sweepableBlobs(staleBefore: Date, limit: Int) async throws -> [SealedBlobRecord]
    func deleteBlobs(_ ids: [UUID]) async throws

    // MARK: Device requests (a new device waiting for one of its person's devices to add it)

    /// Keeps a new device's request; `false`, keeping nothing, when a request already names its device.
    func insertDeviceRequest(_ request: E2EDeviceRequestRecord) async throws -> Bool
    /// `user`'s requests that expire after `now`, oldest first.
    func deviceRequests(of user: UserID, now: Date) async throws -> [E2EDeviceRequestRecord]
    /// Deletes `user`'s request `id`, expired or not; whether there was one.
    func deleteDeviceRequest(_ id: UUID, of user: UserID) async throws -> Bool
    /// Deletes `user`'s request naming `device` (its device is in the chain now), if one does.
    func deleteDeviceRequest(forDevice device: UUID, of user: UserID) async throws
    /// Deletes `user`'s requests that expired at or before `now`.
    func deleteExpiredDeviceRequests(of user: UserID, now: Date) async throws
}

/// A device as the server knows it from a verified device chain.
public struct E2EDeviceRecord: Sendable, Equatable {
    public var id: UUID
    public var userID: UserID
    public var name: String
    /// The HPKE and signing public keys, base64url of their 65-byte points.
    public var hpkePublic: String
    public var signingPublic: String
    public var recovery: Bool
    /// The `at` of the statements that added and revoked it (seconds since 1970).
    public var addedAt: Int64
    public var revokedAt: Int64?

    public init(
        id: UUID, userID: UserID, name: String, hpkePublic: String, signingPublic: String, recovery: Bool,
        addedAt: Int64, revokedAt: Int64?
    ) {
        self.id = id
        self.userID = userID
        self.name = name
        self.hpkePublic = hpkePublic
        self.signingPublic = signingPublic
        self.recovery = recovery
        self.addedAt = addedAt
        self.revokedAt = revokedAt
    }

    public var isLive: Bool { revokedAt == nil }
}

/// A group's key facts, as its verified chain and its epochs leave them.
public struct E2EGroupRecord: Sendable, Equatable {
    public var groupID: GroupID
    public var history: Bool
    /// The current epoch; `nil` before the first.
    public var epoch: Int?
    public var chainLength: Int
    public var head: String

    public init(groupID: GroupID, history: Bool, epoch: Int?, chainLength: Int, head: String) {
        self.groupID = groupID
        self.history = history
        self.epoch = epoch
        self.chainLength = chainLength
        self.head = head
    }
}

/// An encrypted blob: the server knows its size and whose it is, never what it shows.
public struct SealedBlobRecord: Sendable, Equatable {
    public var id: UUID
    public var groupID: GroupID
    public var ownerID: UserID
    public var byteSize: Int
    public var ready: Bool
    public var postID: PostID?
    public var createdAt: Date
    public var discardedAt: Date?

    public init(
        id: UUID, groupID: GroupID, ownerID: UserID, byteSize: Int, ready: Bool = false, postID: PostID? = nil,
        createdAt: Date, discardedAt: Date? = nil
    ) {
        self.id = id
        self.groupID = groupID
        self.ownerID = ownerID
        self.byteSize = byteSize
        self.ready = ready
        self.postID = postID
        self.createdAt = createdAt
        self.discardedAt = discardedAt
    }

    /// Where its bytes live in the blob store.
    public var key: BlobKey { BlobKey("sealed/\(groupID)/\(UUIDText.format(id))")! }
}

/// A new device's request to be added to its person's device chain: its public registration, kept until one
/// of their devices signs it in, they decline it, or it expires.
public struct E2EDeviceRequestRecord: Sendable, Equatable {
    public var id: UUID
    public var userID: UserID
    /// As the request carried it; the keys are base64url of 65-byte points, checked on the way in.
    public var device: E2EDevice
    public var createdAt: Date
    public var expiresAt: Date

    public init(id: UUID, userID: UserID, device: E2EDevice, createdAt: Date, expiresAt: Date) {
        self.id = id
        self.userID = userID
        self.device = device
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// As the owner's sessions read it.
    public var wire: E2EDeviceRequest {
        E2EDeviceRequest(id: id, device: device, createdAt: createdAt, expiresAt: expiresAt)
    }
}
