import Crypto
import Foundation
import SpotterE2E
import SpotterModels
import Testing

/// What the browser made with e2e.js (Tests/Vectors/e2e-browser-v1.json, written by the browser story's
/// `test_browser_vectors_for_swift`) opens and verifies here: the other half of the cross-check whose first
/// half is the browser opening SpotterE2E's own fixture.
@Suite("Vectors made in the browser")
struct BrowserVectorTests {
    struct Vectors: Decodable {
        struct Recipient: Decodable {
            let hpke_private: String
        }
        struct Kit: Decodable, Equatable {
            let hpke_private, hpke_public, signing_private, signing_public: String
        }
        let group_id: String
        let epoch: UInt32
        let recipient: Recipient
        let epoch_key, wrapped_epoch_key: String
        let item_id, content_key, wrapped_content_key: String
        let post_plaintext, sealed_post: String
        let blob_key, blob: String
        let user_id: String
        let device_chain: [E2EStatement]
        let live_device_ids: [String]
        let group_chain: [E2EStatement]
        let safety_number: String
        let signing_public_keys: [String]
        let recovery_entropy, recovery_words: String
        let recovery_keys: Kit
        let recovery_kit: String
    }

    @Test("every item the browser sealed, signed or wrapped opens and verifies in Swift")
    func browserVectors() throws {
        let v = try JSONDecoder().decode(
            Vectors.self, from: Data(contentsOf: SourceTree.vectors.appendingPathComponent("e2e-browser-v1.json")))
        let group = try #require(UUIDText.parse(v.group_id))
        // The epoch key, wrapped in the browser to a key Python made
        let recipient = try P256.KeyAgreement.PrivateKey(rawRepresentation: b64(v.recipient.hpke_private))
        let epochKey = try EpochKeyWrap.open(b64(v.wrapped_epoch_key), with: recipient, groupID: group, epoch: v.epoch)
        #expect(Base64URL.encode(epochKey.rawValue) == v.epoch_key)
        // The content key and the post it seals
        let item = try #require(UUIDText.parse(v.item_id))
        let contentKey = try ContentKeyWrap.open(
            b64(v.wrapped_content_key), with: epochKey, groupID: group, epoch: v.epoch, itemID: item)
        #expect(Base64URL.encode(contentKey.rawValue) == v.content_key)
        let post = try PostBodyCipher.open(b64(v.sealed_post), with: contentKey, groupID: group, postID: item)
        #expect(String(decoding: post, as: UTF8.self) == v.post_plaintext)
        // The blob, chunk by chunk
        let plain = try BlobCipher.open(b64(v.blob), with: try ContentKey(rawValue: b64(v.blob_key)))
        #expect(plain == pattern(150_000))
        // The device chain (two devices, the second signed in by the first) and the group chain it signs
        let user = try #require(UUIDText.parse(v.user_id))
        let chain = try DeviceChain.verify(v.device_chain.map(signed), userID: user)
        #expect(chain.liveDevices.map { UUIDText.format($0.id) } == v.live_device_ids)
        let verified = try GroupChain.verify(v.group_chain.map(signed), groupID: group, deviceChains: [chain])
        #expect(verified.owner == user && verified.history)
        // The safety number of those devices
        let safety = SafetyNumber(userID: user, signingPublicKeys: v.signing_public_keys.map(b64))
        #expect(safety.description == v.safety_number)
        // The recovery words give the same 32 bytes, and open the kit to the keys the browser made
        let secret = try RecoverySecret(words: v.recovery_words)
        #expect(Base64URL.encode(secret.entropy) == v.recovery_entropy)
        let keys = try RecoveryKit.open(b64(v.recovery_kit), secret: secret, userID: user)
        #expect(Base64URL.encode(keys.hpkePrivateRaw) == v.recovery_keys.hpke_private)
        #expect(Base64URL.encode(keys.signingPublic) == v.recovery_keys.signing_public)
    }

    private func signed(_ statement: E2EStatement) -> SignedStatement {
        SignedStatement(body: b64(statement.body), signature: b64(statement.signature), signer: statement.signer)
    }
}
