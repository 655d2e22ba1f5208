import Foundation
import SpotterCore
import SpotterE2E
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterKit

/// Encrypted groups end to end: devices that sign, wrap and seal through SpotterKit, against a real server
/// that stores only ciphertext, wrapped keys and statements (docs/encryption.md).
@Suite("Encrypted groups against a live server")
struct EncryptedGroupsLiveTests {
    static let password = "correct horse battery"

    /// One device of one person: its client and its encrypted-groups actor, keys kept in memory.
    struct Device {
        let client: SpotterClient
        let groups: EncryptedGroups
        var id: UserID { get async throws { try await client.me().id } }

        init(_ client: SpotterClient, clock: ManualClock) {
            self.client = client
            groups = EncryptedGroups(client: client, store: MemoryDeviceKeyStore(), now: { clock.now })
        }

        /// Someone new, with their first device registered.
        static func signUp(_ name: String, _ url: URL, clock: ManualClock) async throws -> Device {
            let client = SpotterClient(baseURL: url)
            try await client.signUp(email: "\(name)@example.com", username: name, password: password)
            let device = Device(client, clock: clock)
            try await device.groups.registerDevice(name: "\(name)'s phone")
            return device
        }

        /// Another device of someone who has an account, signed in, with no keys yet.
        static func signIn(_ name: String, _ url: URL, clock: ManualClock) async throws -> Device {
            let client = SpotterClient(baseURL: url)
            try await client.signIn(login: name, password: password)
            return Device(client, clock: clock)
        }
    }

    /// Ana's encrypted family group with Ben in it, by the server and by the chain.
    static func family(
        _ url: URL, _ clock: ManualClock, history: Bool = true
    ) async throws -> (
        ana: Device, ben: Device, group: Group
    ) {
        let ana = try await Device.signUp("ana", url, clock: clock)
        let family = try await ana.groups.createGroup(name: "Family", history: history)
        let ben = try await Device.signUp("ben", url, clock: clock)
        _ = try await ana.client.createInvitation(to: family.id, CreateInvitationRequest(username: "ben"))
        _ = try await ben.client.joinGroup(family.id)
        #expect(try await ana.client.e2eState(of: family.id).awaitingKeys == [try await ben.id])
        let report = try await ana.groups.reconcile(family.id)
        #expect(report.added == [try await ben.id] && report.newEpoch == nil)
        return (ana, ben, family)
    }

    /// A live server on a port of its own (its presigned upload links carry it; one on port 0 would not know
    /// its port), with the local blob store in a fresh folder.
    static func withServer(
        on backend: StorageBackend, _ body: @Sendable @escaping (URL, ManualClock) async throws -> Void
    ) async throws {
        let port = try await LiveServer.freePort()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-kit-e2e-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let clock = ManualClock(Date())
        try await backend.withIsolatedStorage { storage in
            let server = try await LiveServer.start(storage: storage, port: port, clock: clock) {
                $0.dataDirectory = data.path
            }
            do {
                try await body(URL(string: "http://127.0.0.1:\(port)")!, clock)
            } catch {
                server.cancel()
                _ = await server.result
                throw error
            }
            server.cancel()
            _ = await server.result
        }
    }

    /// Bytes that stand for a photo: more than one 64 KiB chunk.
    static let photo = Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    @Test(
        "Ben's photo and caption for a child open on Ana's device; the server keeps only ciphertext",
        arguments: StorageBackend.available)
    func postAndOpen(backend: StorageBackend) async throws {
        try await Self.withServer(on: backend) { url, clock in
            // Given Ana's encrypted family group, which Ben joined by invitation and Ana's device added
            let (ana, ben, family) = try await Self.family(url, clock)
            #expect(family.encrypted && family.access == .private)
            let mia = try await ben.client.createChild(CreateChildProfileRequest(name: "Mia", birthYear: 2020))

            // When Ben posts a photo and a caption for Mia
            let sent = try await ben.groups.post(
                text: "Mia's first length!", photos: [EncryptedPhoto(data: Self.photo, width: 4, height: 3)],
                childIDs: [mia.id], to: family.id)

            // Then the server has no text, only the sealed body, the child's id and the blobs
            let stored = try await ana.client.post(sent.id)
            #expect(stored.text.isEmpty && stored.sealed != nil && stored.sealed?.blobIDs.count == 2)
            #expect(stored.children.map(\.id) == [mia.id])
            let ciphertext = try await ana.client.sealedBlob(try #require(stored.sealed?.blobIDs.first), in: family.id)
            #expect(ciphertext.count == BlobCipher.sealedCount(plaintextCount: Self.photo.count))
            // And Ana's device opens the caption, the child's name and the photo
            let body = try await ana.groups.open(stored)
            #expect(body.text == "Mia's first length!")
            #expect(body.children == [ChildSummary(id: mia.id, name: "Mia")])
            let media = try #require(body.media.first)
            #expect(media.width == 4 && media.height == 3)
            #expect(try await ana.groups.photo(media, in: family.id) == Self.photo)
            #expect(try await ana.groups.photo(media, thumbnail: true, in: family.id) == Self.photo)

            // When Ana comments, then Ben's device opens it, and the server holds no text
            let comment = try await ana.groups.comment(text: "So proud", on: stored)
            let comments = try await ben.client.comments(on: sent.id).items
            #expect(comments.map(\.text) == [""])
            #expect(try await ben.groups.open(try #require(comments.first)).text == "So proud")
            #expect(comments.first?.id == comment.id)

            // And each sees the other's safety number alike
            let anaSees = try await ana.groups.safetyNumbers(family.id)
            let benSees = try await ben.groups.safetyNumbers(family.id)
            #expect(anaSees.count == 2 && anaSees == benSees)

            // When Ben deletes his post with a signed tombstone
            try await ben.groups.delete(stored)

            // Then it is gone from the server, and his device no longer holds its plaintext
            await #expect(throws: SpotterClientError.self) { try await ana.client.post(sent.id) }
            #expect(await ben.groups.holdsPlaintext(of: sent.id) == false)
        }
    }

    @Test(
        "removing Ben rotates the key, and his device, with every old key, cannot open a later post",
        arguments: StorageBackend.available)
    func removalRotates(backend: StorageBackend) async throws {
        try await LiveServer.run(on: backend) { url, clock in
            // Given the family, and a post Ben's device opened
            let (ana, ben, family) = try await Self.family(url, clock)
            let before = try await ana.groups.post(text: "Before", to: family.id)
            #expect(try await ben.groups.open(try await ben.client.post(before.id)).text == "Before")

            // When Ana removes Ben and her device reconciles
            try await ana.client.removeMember(try await ben.id, from: family.id)
            #expect(try await ana.client.e2eState(of: family.id).rotationDue)
            let report = try await ana.groups.reconcile(family.id)

            // Then Ben is out of the chain and a new epoch was made
            #expect(report.removed == [try await ben.id] && report.newEpoch == 1)
            #expect(try await ana.client.e2eState(of: family.id).rotationDue == false)

            // When Ana posts after the removal
            let after = try await ana.groups.post(text: "After", to: family.id)
            #expect(after.sealed?.epoch == 1)

            // Then the server no longer shows Ben the post, the group's posts, its chain, nor new keys
            await #expect(throws: SpotterClientError.self) { try await ben.client.post(after.id) }
            await #expect(throws: SpotterClientError.self) { try await ben.client.groupPosts(family.id) }
            await #expect(throws: SpotterClientError.self) { try await ben.client.groupChain(of: family.id) }
            await #expect(throws: SpotterClientError.self) { try await ben.client.e2eState(of: family.id) }
            await #expect(throws: (any Error).self) { _ = try await ben.groups.epochKeys(family.id, refresh: true) }
            // And even handed the post, his device cannot open it with any key it ever held
            await #expect(throws: (any Error).self) { try await ben.groups.open(after) }
            let held = try #require(await ben.groups.epochKeyCache[family.id])
            #expect(held.keys.sorted() == [0])
            let sealed = try #require(after.sealed)
            for (epoch, key) in held {
                for claimed in [UInt32(epoch), 1] {
                    #expect(throws: (any Error).self) {
                        try ContentKeyWrap.open(
                            try #require(Base64URL.decode(sealed.key)), with: key, groupID: family.id.rawValue,
                            epoch: claimed, itemID: after.id.rawValue)
                    }
                }
            }
            // While Ana's device opens it
            #expect(try await ana.groups.open(try await ana.client.post(after.id)).text == "After")
        }
    }

    @Test(
        "a second device approved by the first reads the group; revoked as lost, it makes rotation due",
        arguments: StorageBackend.available)
    func lostDevice(backend: StorageBackend) async throws {
        try await LiveServer.run(on: backend) { url, clock in
            // Given the family, and Ana's laptop approved by her phone
            let (ana, ben, family) = try await Self.family(url, clock)
            let anasNumber = try #require(try await ben.groups.safetyNumbers(family.id)[try await ana.id])
            let laptop = try await Device.signIn("ana", url, clock: clock)
            let request = try await laptop.groups.requestDevice(name: "Ana's laptop")
            try await ana.groups.approveDevice(request)
            let before = try await ben.groups.post(text: "Before", to: family.id)
            #expect(try await laptop.groups.open(try await laptop.client.post(before.id)).text == "Before")
            // And Ben's device sees her safety number change with the new device
            #expect(try await ben.groups.safetyNumbers(family.id)[try await ana.id] != anasNumber)

            // When the laptop is lost and her phone revokes it
            try await ana.groups.revokeDevice(request.id)

            // Then rotation is due, and Ben's device (no admin) seals nothing with the key the laptop holds
            #expect(try await ana.client.e2eState(of: family.id).rotationDue)
            await #expect(throws: EncryptedGroupsError.rotationDue(family.id)) {
                try await ben.groups.post(text: "Too soon", to: family.id)
            }
            // And her phone's reconcile makes the next epoch
            let report = try await ana.groups.reconcile(family.id)
            #expect(report.newEpoch == 1 && report.removed.isEmpty)

            // And a post made after it does not open on the laptop, while Ben's device and her phone open it
            let after = try await ben.groups.post(text: "After", to: family.id)
            let seenByLaptop = try await laptop.client.post(after.id)
            await #expect(throws: (any Error).self) { try await laptop.groups.open(seenByLaptop) }
            #expect(await laptop.groups.epochKeyCache[family.id]?.keys.sorted() == [0])
            #expect(try await ana.groups.open(try await ana.client.post(after.id)).text == "After")
        }
    }

    @Test(
        "the recovery words give a new device what the old one could read, and other words give nothing",
        arguments: StorageBackend.available)
    func recovery(backend: StorageBackend) async throws {
        try await LiveServer.run(on: backend) { url, clock in
            // Given the family, a post in it, and Ana's recovery key, made on her phone
            let (ana, ben, family) = try await Self.family(url, clock)
            let old = try await ben.groups.post(text: "Old times", to: family.id)
            let before = try await ana.groups.mySafetyNumber()
            let recovery = try await ana.groups.makeRecoveryKey()
            let words = recovery.words
            #expect(words.count == 24)
            // Which changes her safety number, as the answer says
            #expect(recovery.safetyNumber.before == before && recovery.safetyNumber.after != before)
            #expect(try await ana.groups.mySafetyNumber() == recovery.safetyNumber.after)
            #expect(try await ana.groups.myDevices().filter(\.recovery).count == 1)

            // When her phone is gone and a new device tries other words, then nothing opens
            let fresh = try await Device.signIn("ana", url, clock: clock)
            let wrong = RecoverySecret().words.joined(separator: " ")
            await #expect(throws: (any Error).self) { try await fresh.groups.restore(words: wrong, deviceName: "new") }

            // When it is given her words
            try await fresh.groups.restore(words: words.joined(separator: " "), deviceName: "Ana's new phone")

            // Then it opens the post made before, and is a live device of hers
            #expect(try await fresh.groups.open(try await fresh.client.post(old.id)).text == "Old times")
            #expect(try await fresh.groups.myDevices().count == 3)
        }
    }

    @Test(
        "without history a new member gets only the current epoch; an admin made on the server adds from his device",
        arguments: StorageBackend.available)
    func noHistoryAndAdmins(backend: StorageBackend) async throws {
        try await LiveServer.run(on: backend) { url, clock in
            // Given Ana's group without history, a post in epoch 0, and epoch 1 made when her laptop was lost
            let ana = try await Device.signUp("ana", url, clock: clock)
            let group = try await ana.groups.createGroup(name: "Training partners", history: false)
            let early = try await ana.groups.post(text: "Early days", to: group.id)
            let laptop = try await Device.signIn("ana", url, clock: clock)
            try await ana.groups.approveDevice(try await laptop.groups.requestDevice(name: "laptop"))
            try await ana.groups.revokeDevice(try await laptop.groups.identity().deviceID)
            #expect(try await ana.groups.reconcile(group.id).newEpoch == 1)

            // When Ben joins and Ana's device adds him
            let ben = try await Device.signUp("ben", url, clock: clock)
            _ = try await ana.client.createInvitation(to: group.id, CreateInvitationRequest(username: "ben"))
            _ = try await ben.client.joinGroup(group.id)
            #expect(try await ana.groups.reconcile(group.id).added == [try await ben.id])

            // Then he opens what is posted now, but not what was posted before he came
            let now = try await ana.groups.post(text: "Welcome, Ben", to: group.id)
            #expect(try await ben.groups.open(try await ben.client.post(now.id)).text == "Welcome, Ben")
            await #expect(throws: EncryptedGroupsError.noKey(epoch: 0)) {
                try await ben.groups.open(try await ben.client.post(early.id))
            }

            // When Ana makes him an admin on the server, her device signs it into the chain
            try await ana.client.setRole(.admin, of: try await ben.id, in: group.id)
            #expect(try await ana.groups.reconcile(group.id).roleChanged == [try await ben.id])

            // Then Ben's device adds Carl, who came by invitation, and Carl reads the current epoch
            let carl = try await Device.signUp("carl", url, clock: clock)
            _ = try await ben.client.createInvitation(to: group.id, CreateInvitationRequest(username: "carl"))
            _ = try await carl.client.joinGroup(group.id)
            #expect(try await ben.groups.reconcile(group.id).added == [try await carl.id])
            #expect(try await carl.groups.open(try await carl.client.post(now.id)).text == "Welcome, Ben")
            #expect(try await carl.groups.safetyNumbers(group.id).count == 3)
        }
    }
}
