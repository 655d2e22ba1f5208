import Foundation

// The wire of end-to-end encrypted groups (docs/encryption.md). Keys, ciphertext and signatures travel as
// base64url without padding; the server stores them as given and never holds a key that opens them. Ids are
// written lowercase, as the spec says (Foundation writes a `UUID` in capitals), by the `encode(to:)`s here.

/// A signed statement of a device chain or a group chain: `body` is the exact JSON bytes that were signed.
public struct E2EStatement: Codable, Sendable, Equatable, Hashable {
    /// base64url of the body's UTF-8 JSON bytes.
    public var body: String
    /// base64url of the ECDSA P-256 signature, r ‖ s.
    public var signature: String
    /// The signing device's id.
    public var signer: UUID

    public init(body: String, signature: String, signer: UUID) {
        self.body = body
        self.signature = signature
        self.signer = signer
    }

    enum CodingKeys: String, CodingKey {
        case body, signature, signer
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(body, forKey: .body)
        try container.encode(signature, forKey: .signature)
        try container.encode(UUIDText.format(signer), forKey: .signer)
    }
}

/// A chain's statements in order (`GET /users/{id}/device-chain`, `GET /groups/{id}/e2e/chain`).
public struct E2EChain: Codable, Sendable, Equatable {
    public var statements: [E2EStatement]

    public init(statements: [E2EStatement]) { self.statements = statements }
}

/// `POST /me/device-chain`, `POST /posts/{id}/tombstone`.
public struct E2EStatementRequest: Codable, Sendable, Equatable {
    public var statement: E2EStatement

    public init(statement: E2EStatement) { self.statement = statement }
}

/// Where a chain stands: how many statements, and the newest one's hash.
public struct E2EChainHead: Codable, Sendable, Equatable {
    public var length: Int
    public var head: String?

    public init(length: Int, head: String?) {
        self.length = length
        self.head = head
    }
}

/// `GET`, `PUT /me/recovery-kit`: the recovery device's keys, sealed with a secret only the person has.
public struct E2ERecoveryKit: Codable, Sendable, Equatable {
    public var kit: String

    public init(kit: String) { self.kit = kit }
}

/// A wrapped key for one device: an epoch key sealed to it (HPKE), base64url.
public struct E2EDeviceKey: Codable, Sendable, Equatable, Hashable {
    public var deviceID: UUID
    public var key: String

    public init(deviceID: UUID, key: String) {
        self.deviceID = deviceID
        self.key = key
    }

    enum CodingKeys: String, CodingKey {
        case deviceID = "device_id"
        case key
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(UUIDText.format(deviceID), forKey: .deviceID)
        try container.encode(key, forKey: .key)
    }
}

/// The next epoch of a group's key: its number and its key wrapped to each device that is to have it.
public struct E2ENewEpoch: Codable, Sendable, Equatable {
    public var number: Int
    public var keys: [E2EDeviceKey]

    public init(number: Int, keys: [E2EDeviceKey]) {
        self.number = number
        self.keys = keys
    }
}

/// `POST /groups/{id}/e2e/chain`: statements to append, in order, and perhaps the next epoch, all or nothing.
public struct E2EGroupChangeRequest: Codable, Sendable, Equatable {
    public var statements: [E2EStatement]
    public var epoch: E2ENewEpoch?

    public init(statements: [E2EStatement], epoch: E2ENewEpoch? = nil) {
        self.statements = statements
        self.epoch = epoch
    }
}

/// A wrapped key of an existing epoch for a device (`POST /groups/{id}/e2e/keys`).
public struct E2EEpochKey: Codable, Sendable, Equatable, Hashable {
    public var deviceID: UUID
    public var epoch: Int
    public var key: String

    public init(deviceID: UUID, epoch: Int, key: String) {
        self.deviceID = deviceID
        self.epoch = epoch
        self.key = key
    }

    enum CodingKeys: String, CodingKey {
        case deviceID = "device_id"
        case epoch, key
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(UUIDText.format(deviceID), forKey: .deviceID)
        try container.encode(epoch, forKey: .epoch)
        try container.encode(key, forKey: .key)
    }
}

/// `POST /groups/{id}/e2e/keys`; also what `GET /groups/{id}/e2e/keys?device_id=` answers.
public struct E2EEpochKeys: Codable, Sendable, Equatable {
    public var keys: [E2EEpochKey]

    public init(keys: [E2EEpochKey]) { self.keys = keys }
}

/// `GET /groups/{id}/e2e`: where an encrypted group's keys stand, and what a device should do.
public struct E2EGroupState: Codable, Sendable, Equatable {
    /// The current epoch; `nil` until the group's first statement and epoch arrive.
    public var epoch: Int?
    public var chain: E2EChainHead
    /// Whether new members get older epochs (from the chain's `create` statement).
    public var history: Bool?
    /// Someone with the current epoch's key is no longer a member, or a device of theirs was revoked: an admin's
    /// device should make the next epoch.
    public var rotationDue: Bool
    /// Members the server counts whom the chain has not added yet: an admin's device should add them.
    public var awaitingKeys: [UserID]
    /// Members whose role by the chain is not the one the server gives them (a role changed through REST):
    /// the chain owner's device should sign each `role`. Empty from servers older than it.
    public var rolesDue: [E2ERoleDue]

    public init(
        epoch: Int?, chain: E2EChainHead, history: Bool?, rotationDue: Bool, awaitingKeys: [UserID],
        rolesDue: [E2ERoleDue] = []
    ) {
        self.epoch = epoch
        self.chain = chain
        self.history = history
        self.rotationDue = rotationDue
        self.awaitingKeys = awaitingKeys
        self.rolesDue = rolesDue
    }

    enum CodingKeys: String, CodingKey {
        case epoch, chain, history
        case rotationDue = "rotation_due"
        case awaitingKeys = "awaiting_keys"
        case rolesDue = "roles_due"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        epoch = try container.decodeIfPresent(Int.self, forKey: .epoch)
        chain = try container.decode(E2EChainHead.self, forKey: .chain)
        history = try container.decodeIfPresent(Bool.self, forKey: .history)
        rotationDue = try container.decode(Bool.self, forKey: .rotationDue)
        awaitingKeys = try container.decode([UserID].self, forKey: .awaitingKeys)
        rolesDue = try container.decodeIfPresent([E2ERoleDue].self, forKey: .rolesDue) ?? []
    }
}

/// A role the server gives a member that the group's chain does not give them yet (`roles_due`).
public struct E2ERoleDue: Codable, Sendable, Equatable {
    public var userID: UserID
    /// The role by the server: `owner` when the group was handed to them.
    public var role: GroupRole

    public init(userID: UserID, role: GroupRole) {
        self.userID = userID
        self.role = role
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case role
    }
}

/// The sealed content of a post or comment in an encrypted group: its body encrypted with a content key, and
/// that key wrapped by the epoch key. The server keeps it as sent.
public struct SealedContent: Codable, Sendable, Equatable, Hashable {
    public var epoch: Int
    /// The content key wrapped by the epoch's wrapping key, base64url (60 bytes).
    public var key: String
    /// The body, nonce ‖ ciphertext ‖ tag, base64url.
    public var body: String
    /// The encrypted photos the body refers to (a post's; empty for a comment).
    public var blobIDs: [UUID]

    public init(epoch: Int, key: String, body: String, blobIDs: [UUID] = []) {
        self.epoch = epoch
        self.key = key
        self.body = body
        self.blobIDs = blobIDs
    }

    enum CodingKeys: String, CodingKey {
        case epoch, key, body
        case blobIDs = "blob_ids"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        epoch = try container.decode(Int.self, forKey: .epoch)
        key = try container.decode(String.self, forKey: .key)
        body = try container.decode(String.self, forKey: .body)
        blobIDs = try container.decodeIfPresent([UUID].self, forKey: .blobIDs) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(epoch, forKey: .epoch)
        try container.encode(key, forKey: .key)
        try container.encode(body, forKey: .body)
        try container.encode(blobIDs.map(UUIDText.format), forKey: .blobIDs)
    }
}

/// `POST /groups/{id}/e2e/blobs`: an encrypted blob of `byteSize` bytes is coming.
public struct CreateSealedBlobRequest: Codable, Sendable, Equatable {
    public var byteSize: Int

    public init(byteSize: Int) { self.byteSize = byteSize }

    enum CodingKeys: String, CodingKey {
        case byteSize = "byte_size"
    }
}

/// Where to send an encrypted blob's bytes: straight to the blob store, with exactly these headers.
public struct SealedBlobUpload: Codable, Sendable, Equatable {
    public var id: UUID
    public var uploadURL: String
    public var uploadHeaders: [String: String]
    public var expiresAt: Date

    public init(id: UUID, uploadURL: String, uploadHeaders: [String: String], expiresAt: Date) {
        self.id = id
        self.uploadURL = uploadURL
        self.uploadHeaders = uploadHeaders
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case uploadURL = "upload_url"
        case uploadHeaders = "upload_headers"
        case expiresAt = "expires_at"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(UUIDText.format(id), forKey: .id)
        try container.encode(uploadURL, forKey: .uploadURL)
        try container.encode(uploadHeaders, forKey: .uploadHeaders)
        try container.encode(expiresAt, forKey: .expiresAt)
    }
}
