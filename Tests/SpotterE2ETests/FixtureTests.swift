import Crypto
import Foundation
import SpotterE2E
import SpotterModels
import Testing

/// The committed fixture still opens and verifies with this module (so it cannot go stale); and, run once with
/// `SPOTTER_E2E_WRITE_FIXTURE=1`, writes it.
@Suite("The spotter-e2e-v1 fixture")
struct FixtureTests {
    @Test("every value of Tests/Vectors/spotter-e2e-v1.json opens and verifies")
    func fixtureOpens() throws {
        let fixture = try Fixture.read()
        // Keys and wraps
        let device = try fixture.device.keys.deviceKeys()
        #expect(Base64URL.encode(device.hpkePublic) == fixture.device.keys.hpkePublic)
        let group = try #require(UUIDText.parse(fixture.epochKey.groupID))
        let epoch = fixture.epochKey.epoch
        #expect(fixture.epochKey.info == "spotter-e2e-v1 epoch-key\n\(fixture.epochKey.groupID)\n\(epoch)")
        let epochKey = try EpochKeyWrap.open(
            b64(fixture.epochKey.wrapped), with: device.hpke, groupID: group, epoch: epoch)
        #expect(Base64URL.encode(epochKey.rawValue) == fixture.epochKey.key)
        #expect(Base64URL.encode(epochKey.wrappingKey.withUnsafeBytes { Data($0) }) == fixture.epochKey.wrappingKey)
        let item = try #require(UUIDText.parse(fixture.contentKey.itemID))
        let contentKey = try ContentKeyWrap.open(
            b64(fixture.contentKey.wrapped), with: epochKey, groupID: group, epoch: epoch, itemID: item)
        #expect(Base64URL.encode(contentKey.rawValue) == fixture.contentKey.key)
        // The post
        let post = try #require(UUIDText.parse(fixture.post.postID))
        let body = try PostBodyCipher.open(b64(fixture.post.sealed), with: contentKey, groupID: group, postID: post)
        #expect(String(decoding: body, as: UTF8.self) == fixture.post.plaintext)
        // A body the other clients can read: a JSON object of version 1 (the browser refuses anything else).
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        #expect(object?["v"] as? Int == 1)
        // The blob
        let blobKey = try ContentKey(rawValue: b64(fixture.blob.contentKey))
        let sealed = b64(fixture.blob.sealed)
        #expect(sealed.count == fixture.blob.sealedLength)
        let plaintext = try BlobCipher.open(sealed, with: blobKey)
        #expect(plaintext == pattern(fixture.blob.plaintextLength))
        #expect(hex(SHA256.hash(data: plaintext)) == fixture.blob.plaintextSHA256)
        // The chains
        let user = try #require(UUIDText.parse(fixture.deviceChain.userID))
        let chain = try DeviceChain.verify(fixture.deviceChain.statements, userID: user)
        #expect(chain.liveDevices.map { UUIDText.format($0.id) } == fixture.deviceChain.liveDeviceIDs)
        #expect(chain.head == fixture.deviceChain.head)
        let chains = try fixture.groupChain.deviceChains.map { id, statements in
            try DeviceChain.verify(statements, userID: #require(UUIDText.parse(id)))
        }
        let groupID = try #require(UUIDText.parse(fixture.groupChain.groupID))
        let verified = try GroupChain.verify(fixture.groupChain.statements, groupID: groupID, deviceChains: chains)
        #expect(
            verified.members.map { Fixture.Member(user: UUIDText.format($0.userID), role: $0.role.rawValue) }
                == fixture.groupChain.members)
        #expect(verified.head == fixture.groupChain.head)
        // The safety number
        let safety = SafetyNumber(
            userID: try #require(UUIDText.parse(fixture.safetyNumber.userID)),
            signingPublicKeys: fixture.safetyNumber.signingPublicKeys.map(b64))
        #expect(safety.description == fixture.safetyNumber.number)
        // Recovery
        let secret = try RecoverySecret(entropy: b64(fixture.recovery.entropy))
        #expect(secret.words.joined(separator: " ") == fixture.recovery.words)
        #expect(try RecoverySecret(words: fixture.recovery.words) == secret)
        let recoveryUser = try #require(UUIDText.parse(fixture.recovery.userID))
        let kitKeys = try RecoveryKit.open(b64(fixture.recovery.kit), secret: secret, userID: recoveryUser)
        #expect(Fixture.KeyPairs(kitKeys).hpkePrivate == fixture.recovery.keys.hpkePrivate)
        #expect(Fixture.KeyPairs(kitKeys).signingPublic == fixture.recovery.keys.signingPublic)
    }

    @Test(
        "write the fixture",
        .enabled(if: ProcessInfo.processInfo.environment["SPOTTER_E2E_WRITE_FIXTURE"] == "1", "writes only when asked"))
    func write() throws {
        let fixture = try FixtureGenerator.make()
        try Fixture.encoder.encode(fixture).write(to: SourceTree.e2eFixture)
    }
}
