import Foundation
import SpotterModels

/// End-to-end encrypted groups (docs/encryption.md, "Who holds what"): device chains, the recovery kit, a
/// group's chain, epochs and wrapped keys, and encrypted blobs. The server stores what these carry as given;
/// nothing here encrypts or checks a signature. `EncryptedGroups` does the scheme on top of these calls.
///
/// ```swift
/// let chain = try await client.deviceChain(of: ben)              // verify with DeviceChain.verify
/// let state = try await client.e2eState(of: family.id)           // what is due: rotation_due, awaiting_keys
/// try await client.changeE2EGroup(family.id, E2EGroupChangeRequest(statements: [add], epoch: next))
/// ```
extension SpotterClient {
    // MARK: Device chains and the recovery kit

    /// A person's device chain, in order: public keys, readable by anyone signed in who is not blocked.
    public func deviceChain(of user: UserID) async throws -> E2EChain {
        try await call(Call(method: "GET", path: "/api/v1/device-chains/\(user)"))
    }

    /// Appends a statement to my device chain; 409 when its `seq` is not the chain's length (someone appended
    /// first: read the chain again and sign after its new head).
    @discardableResult
    public func appendDeviceStatement(
        _ statement: E2EStatement, idempotencyKey: String? = nil
    ) async throws
        -> E2EChainHead
    {
        try await call(
            .change(
                "POST", "/api/v1/me/device-chain",
                body: try Self.encoder.encode(E2EStatementRequest(statement: statement)),
                key: idempotencyKey))
    }

    /// My sealed recovery kit (404 when there is none).
    public func recoveryKit() async throws -> E2ERecoveryKit {
        try await call(Call(method: "GET", path: "/api/v1/me/recovery-kit"))
    }

    /// Stores my sealed recovery kit, replacing any other.
    public func putRecoveryKit(_ kit: E2ERecoveryKit, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change("PUT", "/api/v1/me/recovery-kit", body: try Self.encoder.encode(kit), key: idempotencyKey))
    }

    // MARK: A group's chain and keys

    /// Where an encrypted group's keys stand, and what a device should do (members).
    public func e2eState(of group: GroupID) async throws -> E2EGroupState {
        try await call(Call(method: "GET", path: "/api/v1/groups/\(group)/e2e"))
    }

    /// The group's chain, in order (members and people invited).
    public func groupChain(of group: GroupID) async throws -> E2EChain {
        try await call(Call(method: "GET", path: "/api/v1/groups/\(group)/e2e/chain"))
    }

    /// Appends statements and perhaps starts the next epoch, all or nothing; 409 when another device appended
    /// first.
    public func changeE2EGroup(
        _ group: GroupID, _ change: E2EGroupChangeRequest, idempotencyKey: String? = nil
    ) async throws {
        _ = try await send(
            .change(
                "POST", "/api/v1/groups/\(group)/e2e/chain", body: try Self.encoder.encode(change), key: idempotencyKey)
        )
    }

    /// Adds wrapped keys of existing epochs (for a new member, or a member's new device).
    public func addEpochKeys(_ keys: E2EEpochKeys, in group: GroupID, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change(
                "POST", "/api/v1/groups/\(group)/e2e/keys", body: try Self.encoder.encode(keys), key: idempotencyKey))
    }

    /// The wrapped keys one of my devices holds in the group, oldest epoch first.
    public func epochKeys(in group: GroupID, device: UUID) async throws -> [WrappedEpochKey] {
        let answer: WrappedEpochKeys = try await call(
            Call(
                method: "GET", path: "/api/v1/groups/\(group)/e2e/keys",
                query: Self.query(["device_id": UUIDText.format(device)])))
        return answer.keys
    }

    // MARK: Encrypted blobs

    /// Step one of an encrypted photo: where to send its `byteSize` encrypted bytes.
    public func createSealedBlob(
        in group: GroupID, byteSize: Int, idempotencyKey: String? = nil
    ) async throws -> SealedBlobUpload {
        try await call(
            .change(
                "POST", "/api/v1/groups/\(group)/e2e/blobs",
                body: try Self.encoder.encode(CreateSealedBlobRequest(byteSize: byteSize)), key: idempotencyKey))
    }

    /// Step two: the encrypted bytes, `PUT` to the presigned link with exactly its headers and no session token
    /// (the link is the permission).
    public func sendSealedBlob(_ bytes: Data, to upload: SealedBlobUpload) async throws {
        guard let url = URL(string: upload.uploadURL) else {
            throw SpotterClientError.unreadableResponse(status: 0, detail: "bad upload link \(upload.uploadURL)")
        }
        _ = try await send(
            Call(
                method: "PUT", path: url.path, body: bytes, authenticated: false, absoluteURL: url,
                headers: upload.uploadHeaders))
    }

    /// Step three: the bytes are there (the server checks their size).
    public func completeSealedBlob(_ blob: UUID, in group: GroupID, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change(
                "POST", "/api/v1/groups/\(group)/e2e/blobs/\(UUIDText.format(blob))/complete", key: idempotencyKey))
    }

    /// A blob's ciphertext (members only, checked at each fetch).
    public func sealedBlob(_ blob: UUID, in group: GroupID) async throws -> Data {
        var call = Call(method: "GET", path: "/api/v1/groups/\(group)/e2e/blobs/\(UUIDText.format(blob))")
        call.headers["Accept"] = "application/octet-stream"
        return try await send(call).body
    }

    // MARK: Deleting a sealed post

    /// Deletes a sealed post with a `delete` statement signed by a live device of its author; its ciphertext,
    /// comments and blobs go.
    public func tombstone(_ post: PostID, _ statement: E2EStatement, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change(
                "POST", "/api/v1/posts/\(post)/tombstone",
                body: try Self.encoder.encode(E2EStatementRequest(statement: statement)), key: idempotencyKey))
    }
}

/// An epoch key wrapped to one of my devices, as `GET /groups/{id}/e2e/keys?device_id=` answers it.
public struct WrappedEpochKey: Codable, Sendable, Equatable {
    public var epoch: Int
    /// `enc ‖ ct`, base64url (113 bytes).
    public var key: String

    public init(epoch: Int, key: String) {
        self.epoch = epoch
        self.key = key
    }
}

/// The answer's shape; read leniently so a `device_id` beside each key changes nothing.
struct WrappedEpochKeys: Codable, Sendable {
    var keys: [WrappedEpochKey]
}
