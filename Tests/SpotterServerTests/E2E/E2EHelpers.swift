import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterE2E
import SpotterModels
import Testing

/// A person with one device, as a client would hold them: the token, the device's keys, and what their
/// device chain and the groups' chains look like so far.
struct E2EPerson: Sendable {
    let name: String
    let token: String
    let id: UserID
    let deviceID: UUID
    let keys: DeviceKeys
    var signer: StatementSigner { StatementSigner(deviceID: deviceID, key: keys.signing) }
    var registration: SpotterE2E.DeviceRegistration { keys.registration(id: deviceID, name: "\(name)'s phone") }
}

extension APIClient {
    /// Signs up `name` and registers their first device (statement 0 of their chain, signed by itself).
    func e2ePerson(_ name: String) async throws -> E2EPerson {
        let token = try await user(name)
        let id = try await call(.get, "/api/v1/me", token: token).decode(Account.self).id
        let person = E2EPerson(name: name, token: token, id: id, deviceID: UUID(), keys: DeviceKeys())
        let first = try person.signer.sign(
            .addDevice(person.registration), on: .device(user: id.rawValue), after: nil, at: now)
        let response = try await call(
            .post, "/api/v1/me/device-chain", token: token, body: E2EStatementRequest(statement: first.wire))
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
        return person
    }

    /// The server's clock, in a statement's seconds.
    var now: Int64 { Int64(clock.now.timeIntervalSince1970) }

    func chain(_ path: String, token: String) async throws -> [SignedStatement] {
        let response = try await call(.get, path, token: token)
        guard response.status == .ok else { throw UnexpectedStatus(response: response) }
        return try response.decode(E2EChain.self).statements.compactMap(SignedStatement.init(wire:))
    }

    func groupState(_ group: GroupID, token: String) async throws -> E2EGroupState {
        let response = try await call(.get, "/api/v1/groups/\(group)/e2e", token: token)
        guard response.status == .ok else { throw UnexpectedStatus(response: response) }
        return try response.decode(E2EGroupState.self)
    }

    /// Makes an encrypted family group owned by `owner`, with its `create` statement and epoch 0.
    func encryptedGroup(
        _ name: String, owner: E2EPerson, history: Bool = false
    ) async throws -> (Group, EpochKey, SignedStatement) {
        let created = try await call(
            .post, "/api/v1/groups", token: owner.token,
            body: CreateGroupRequest(name: name, access: .private, encrypted: true))
        guard created.status == .created else { throw UnexpectedStatus(response: created) }
        let group = try created.decode(Group.self)
        let key = EpochKey()
        let create = try owner.signer.sign(
            .create(user: owner.id.rawValue, history: history), on: .group(group.id.rawValue), after: nil, at: now)
        let change = E2EGroupChangeRequest(
            statements: [create.wire], epoch: E2ENewEpoch(number: 0, keys: [try owner.wrap(key, group, epoch: 0)]))
        let response = try await call(.post, "/api/v1/groups/\(group.id)/e2e/chain", token: owner.token, body: change)
        guard response.status == .ok else { throw UnexpectedStatus(response: response) }
        return (group, key, create)
    }

    /// Uploads `bytes` as an encrypted blob of `group` and completes it.
    func sealedBlob(_ bytes: Data, in group: GroupID, token: String) async throws -> UUID {
        let made = try await call(
            .post, "/api/v1/groups/\(group)/e2e/blobs", token: token,
            body: CreateSealedBlobRequest(byteSize: bytes.count))
        guard made.status == .created else { throw UnexpectedStatus(response: made) }
        let upload = try made.decode(SealedBlobUpload.self)
        let status = try await send(bytes, to: upload.uploadURL, headers: upload.uploadHeaders)
        try #require((200..<300).contains(status), "the store refused the upload: \(status)")
        let completed = try await call(
            .post, "/api/v1/groups/\(group)/e2e/blobs/\(UUIDText.format(upload.id))/complete", token: token)
        guard completed.status == .noContent else { throw UnexpectedStatus(response: completed) }
        return upload.id
    }
}

extension E2EPerson {
    /// `key` sealed to this person's device for `group` and `epoch`.
    func wrap(_ key: EpochKey, _ group: Group, epoch: Int) throws -> E2EDeviceKey {
        E2EDeviceKey(
            deviceID: deviceID,
            key: Base64URL.encode(
                try EpochKeyWrap.seal(key, to: keys.hpke.publicKey, groupID: group.id.rawValue, epoch: UInt32(epoch))))
    }

    /// Opens a wrapped epoch key that was sealed to this device.
    func open(_ wrapped: String, _ group: Group, epoch: Int) throws -> EpochKey {
        try EpochKeyWrap.open(
            Base64URL.decode(wrapped) ?? Data(), with: keys.hpke, groupID: group.id.rawValue, epoch: UInt32(epoch))
    }
}

/// A post body sealed as a client seals it: the text in a body under a fresh content key, the key wrapped by
/// the epoch key.
func sealedContent(
    _ text: String, group: Group, postID: UUID, epoch: Int, key: EpochKey, blobs: [UUID] = []
) throws -> (SealedContent, ContentKey) {
    let content = ContentKey()
    let body = try PostBodyCipher.seal(
        Data(#"{"v":1,"text":"\#(text)","workout":null,"children":[],"media":[]}"#.utf8), with: content,
        groupID: group.id.rawValue, postID: postID)
    let wrapped = try ContentKeyWrap.seal(
        content, with: key, groupID: group.id.rawValue, epoch: UInt32(epoch), itemID: postID)
    return (
        SealedContent(epoch: epoch, key: Base64URL.encode(wrapped), body: Base64URL.encode(body), blobIDs: blobs),
        content
    )
}
