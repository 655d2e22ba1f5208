import Crypto
import Foundation
import SpotterE2E
import Testing

/// Epoch keys wrapped with HPKE, checked against RFC 9180's own vectors (Appendix A.3.1).
@Suite("Epoch keys wrapped with HPKE")
struct HPKETests {
    struct Vector: Decodable {
        struct Encryption: Decodable {
            var pt: String
            var aad: String
            var ct: String
        }
        struct Export: Decodable {
            var context: String
            var length: Int
            var value: String
        }
        var info: String
        var skEm: String
        var pkEm: String
        var skRm: String
        var pkRm: String
        var enc: String
        var encryptions: [Encryption]
        var exports: [Export]
    }

    static func vector() throws -> Vector {
        try JSONDecoder().decode(
            Vector.self, from: Data(contentsOf: SourceTree.vectors.appendingPathComponent("rfc9180-a3-1.json")))
    }

    @Test("swift-crypto opens RFC 9180 A.3.1's ciphertext and exports its secret with our ciphersuite")
    func rfcVector() throws {
        // Given the RFC's recipient key, enc, info and first encryption
        let vector = try Self.vector()
        let recipientKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: data(hex: vector.skRm))
        let encryption = try #require(vector.encryptions.first)
        // When we open it as EpochKeyWrap's ciphersuite
        var recipient = try HPKE.Recipient(
            privateKey: recipientKey, ciphersuite: EpochKeyWrap.ciphersuite, info: data(hex: vector.info),
            encapsulatedKey: data(hex: vector.enc))
        let plaintext = try recipient.open(data(hex: encryption.ct), authenticating: data(hex: encryption.aad))
        // Then the plaintext, export and keys are the RFC's
        #expect(hex(plaintext) == encryption.pt)
        let export = try #require(vector.exports.first)
        let secret = try recipient.exportSecret(context: data(hex: export.context), outputByteCount: export.length)
        #expect(hex(secret.withUnsafeBytes { Data($0) }) == export.value)
        #expect(hex(recipientKey.publicKey.x963Representation) == vector.pkRm)
        let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: data(hex: vector.skEm))
        #expect(hex(ephemeral.publicKey.x963Representation) == vector.pkEm)
        #expect(vector.enc == vector.pkEm)
        // swift-crypto's HPKE.Sender makes its own ephemeral key and has no public way to be given skEm, so the
        // RFC's sealing side (ct from skEm) cannot be replayed here; opening, the export and both key pairs can.
    }

    @Test("the ciphersuite is the spec's: KEM 0x0010, KDF 0x0001, AEAD 0x0001")
    func ciphersuite() {
        // (The ids themselves are swift-crypto SPI; these cases are the ones it numbers 0x0010, 0x0001, 0x0001.)
        #expect(EpochKeyWrap.ciphersuite.kem == .P256_HKDF_SHA256)
        #expect(EpochKeyWrap.ciphersuite.kdf == .HKDF_SHA256)
        #expect(EpochKeyWrap.ciphersuite.aead == .AES_GCM_128)
    }

    @Test("a wrapped epoch key is 113 bytes and opens with the device's key, group and epoch")
    func roundTrip() throws {
        // Given a device and an epoch key
        let device = DeviceKeys()
        let epochKey = EpochKey()
        // When it is wrapped to the device
        let wrapped = try EpochKeyWrap.seal(epochKey, to: device.hpke.publicKey, groupID: IDs.group, epoch: 7)
        // Then it is enc ‖ ct and opens to the same key
        #expect(wrapped.count == 113)
        #expect(wrapped.first == 0x04)
        let opened = try EpochKeyWrap.open(wrapped, with: device.hpke, groupID: IDs.group, epoch: 7)
        #expect(opened.rawValue == epochKey.rawValue)
    }

    @Test("a key wrapped to another device, group or epoch, or changed, does not open")
    func refusals() throws {
        // Given a key wrapped to one device for group 1, epoch 7
        let device = DeviceKeys()
        let wrapped = try EpochKeyWrap.seal(EpochKey(), to: device.hpke.publicKey, groupID: IDs.group, epoch: 7)
        // Then another device cannot open it (a key wrapped to an unknown device)
        #expect(throws: E2EError.authenticationFailed) {
            try EpochKeyWrap.open(wrapped, with: DeviceKeys().hpke, groupID: IDs.group, epoch: 7)
        }
        // Nor can the right device as another group or epoch
        #expect(throws: E2EError.authenticationFailed) {
            try EpochKeyWrap.open(wrapped, with: device.hpke, groupID: IDs.otherGroup, epoch: 7)
        }
        #expect(throws: E2EError.authenticationFailed) {
            try EpochKeyWrap.open(wrapped, with: device.hpke, groupID: IDs.group, epoch: 8)
        }
        // Nor a changed byte anywhere, in enc or in ct
        for index in [1, 64, 65, 100, 112] {
            var changed = wrapped
            changed[index] ^= 0x01
            #expect(throws: E2EError.self) {
                try EpochKeyWrap.open(changed, with: device.hpke, groupID: IDs.group, epoch: 7)
            }
        }
        // And a wrong length is malformed before any decryption
        #expect(throws: E2EError.malformed("a wrapped epoch key is 113 bytes, not 112")) {
            try EpochKeyWrap.open(wrapped.dropLast(), with: device.hpke, groupID: IDs.group, epoch: 7)
        }
    }
}
