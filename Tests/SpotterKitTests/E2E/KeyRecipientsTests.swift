import Foundation
import SpotterE2E
import SpotterModels
import Testing

@testable import SpotterKit

/// The ghost-device rule without a server: an epoch key goes only to a live device, by a verified chain, of a
/// member, by the verified group chain; and a chain that does not continue what was seen is refused.
@Suite("Key recipients")
struct KeyRecipientsTests {
    /// A person with one device, its chain verified.
    struct Person {
        let user = UUID()
        let keys = DeviceKeys()
        let device = UUID()
        var signer: StatementSigner { StatementSigner(deviceID: device, key: keys.signing) }
        var registration: SpotterE2E.DeviceRegistration { keys.registration(id: device, name: "phone") }
        var first: SignedStatement {
            get throws { try signer.sign(.addDevice(registration), on: .device(user: user), after: nil, at: 1_000) }
        }
        var chain: VerifiedDeviceChain { get throws { try DeviceChain.verify([try first], userID: user) } }
    }

    @Test("a key is wrapped to members' live devices, and refused to any device no verified member's chain holds")
    func ghostDevices() throws {
        // Given Ana's group with Ben in it, Ben's second device revoked, and Mallory, who has a chain but is no member
        let ana = Person()
        let ben = Person()
        let mallory = Person()
        let group = UUID()
        let create = try ana.signer.sign(
            .create(user: ana.user, history: true), on: .group(group), after: nil, at: 1_001)
        let add = try ana.signer.sign(.add(user: ben.user, role: .member), on: .group(group), after: create, at: 1_002)
        let old = DeviceKeys().registration(id: UUID(), name: "old phone")
        let benAddsOld = try ben.signer.sign(
            .addDevice(old), on: .device(user: ben.user), after: try ben.first, at: 1_003)
        let benRevokes = try ben.signer.sign(
            .revokeDevice(old.id), on: .device(user: ben.user), after: benAddsOld, at: 1_004)
        let benChain = try DeviceChain.verify([try ben.first, benAddsOld, benRevokes], userID: ben.user)
        let chains = [try ana.chain, benChain, try mallory.chain]
        let verified = try GroupChain.verify([create, add], groupID: group, deviceChains: chains)
        let recipients = KeyRecipients(group: verified, deviceChains: chains)
        let epochKey = EpochKey()

        // When the key is wrapped to every member's devices
        let wrapped = try recipients.wrapToAll(epochKey, epoch: 0)

        // Then exactly Ana's and Ben's live devices get it, and each opens its own
        #expect(Set(wrapped.map(\.deviceID)) == [ana.device, ben.device])
        for (person, key) in [
            (ana, wrapped.first { $0.deviceID == ana.device }!), (ben, wrapped.first { $0.deviceID == ben.device }!),
        ] {
            let opened = try EpochKeyWrap.open(
                try #require(Base64URL.decode(key.key)), with: person.keys.hpke, groupID: group, epoch: 0)
            #expect(opened.rawValue == epochKey.rawValue)
        }
        // And a device the server names but no chain holds, a non-member's device, and a revoked device are
        // each refused, and one ghost among real devices refuses the whole lot
        for ghost in [UUID(), mallory.device, old.id] {
            #expect(throws: EncryptedGroupsError.ghostDevice(ghost)) {
                try recipients.wrap(epochKey, epoch: 0, to: [ana.device, ghost])
            }
        }
        #expect(throws: EncryptedGroupsError.notAMember(UserID(rawValue: mallory.user))) {
            try recipients.devices(of: UserID(rawValue: mallory.user))
        }
    }

    @Test("a device the server slipped into someone's chain is refused with the chain, so no key can reach it")
    func forgedDevice() throws {
        // Given Ben's chain, and a device the server appended, signed by a key the chain never added
        let ben = Person()
        let ghostKeys = DeviceKeys()
        let ghost = ghostKeys.registration(id: UUID(), name: "ghost")
        let forged = try StatementSigner(deviceID: ghost.id, key: ghostKeys.signing)
            .sign(.addDevice(ghost), on: .device(user: ben.user), after: try ben.first, at: 1_001)

        // When the chain is verified, then it is refused at the forged statement
        #expect(throws: ChainError(seq: 1, reason: .unknownSigner(ghost.id))) {
            try DeviceChain.verify([try ben.first, forged], userID: ben.user)
        }
    }

    @Test("a chain that does not continue what this device saw is refused; one that extends it is taken")
    func rewrittenChain() throws {
        // Given a device chain of two statements seen
        let ana = Person()
        let second = DeviceKeys().registration(id: UUID(), name: "laptop")
        let adds = try ana.signer.sign(.addDevice(second), on: .device(user: ana.user), after: try ana.first, at: 1_001)
        var seen = SeenChains()
        try seen.accept(try DeviceChain.verify([try ana.first, adds], userID: ana.user))

        // When the server shows it cut back to one statement, then it is refused
        let name = ChainID.device(user: ana.user).description
        #expect(throws: EncryptedGroupsError.chainRewritten(chain: name)) {
            try seen.accept(try ana.chain)
        }
        // And when it shows another second statement (the same length, another head), it is refused too
        let other = try ana.signer.sign(
            .addDevice(DeviceKeys().registration(id: UUID(), name: "tablet")), on: .device(user: ana.user),
            after: try ana.first, at: 1_002)
        #expect(throws: EncryptedGroupsError.chainRewritten(chain: name)) {
            try seen.accept(try DeviceChain.verify([try ana.first, other], userID: ana.user))
        }
        // And a chain that extends it is taken
        let third = try ana.signer.sign(.revokeDevice(second.id), on: .device(user: ana.user), after: adds, at: 1_003)
        try seen.accept(try DeviceChain.verify([try ana.first, adds, third], userID: ana.user))
        #expect(seen.length(of: .device(user: ana.user)) == 3)
    }

    @Test("a sealed post body is the documented JSON, with lowercase ids, and only version 1 is read")
    func postBodyJSON() throws {
        // Given a body with a child and a photo
        let blob = UUID()
        let child = ChildProfileID.generate()
        let body = SealedPostBody(
            text: "First length!", children: [ChildSummary(id: child, name: "Mia")],
            media: [
                SealedPostBody.Media(
                    blobID: blob, key: "a2V5", thumbnailBlobID: blob, thumbnailKey: "dGh1bWI", width: 4, height: 3)
            ])

        // When it is encoded as the client seals it
        let json = try #require(String(data: try EncryptedGroups.bodyEncoder.encode(body), encoding: .utf8))

        // Then its fields are the documented ones, ids lowercase
        let id = UUIDText.format(blob)
        #expect(json.contains(#""v":1"#) && json.contains(#""text":"First length!""#))
        #expect(json.contains(#""children":[{"id":"\#(child)","name":"Mia"}]"#))
        #expect(json.contains(#""blob_id":"\#(id)""#) && json.contains(#""thumbnail_blob_id":"\#(id)""#))
        #expect(json.contains(#""key":"a2V5""#) && json.contains(#""thumbnail_key":"dGh1bWI""#))
        #expect(try EncryptedGroups.bodyDecoder.decode(SealedPostBody.self, from: Data(json.utf8)) == body)
        // And a body of another version is refused
        #expect(throws: DecodingError.self) {
            try EncryptedGroups.bodyDecoder.decode(SealedPostBody.self, from: Data(#"{"v":2,"text":"?"}"#.utf8))
        }
    }
}
