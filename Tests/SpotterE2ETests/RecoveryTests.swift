import Foundation
import SpotterE2E
import Testing

@Suite("Recovery words and kits")
struct RecoveryTests {
    /// BIP-39's own test vectors (trezor/python-mnemonic vectors.json, 256-bit entropy).
    @Test(
        "32 bytes give BIP-39's 24 words and back",
        arguments: [
            (String(repeating: "00", count: 32), String(repeating: "abandon ", count: 23) + "art"),
            (
                String(repeating: "7f", count: 32),
                "legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful "
                    + "legal winner thank year wave sausage worth title"
            ),
            (String(repeating: "ff", count: 32), String(repeating: "zoo ", count: 23) + "vote"),
        ])
    func bip39(entropy: String, words: String) throws {
        let secret = try RecoverySecret(entropy: data(hex: entropy))
        #expect(secret.words.joined(separator: " ") == words)
        #expect(try RecoverySecret(words: words).entropy == data(hex: entropy))
        #expect(try RecoverySecret(words: "  " + words.uppercased() + "\n").entropy == data(hex: entropy))
    }

    @Test("words with a bad checksum, an unknown word or the wrong count are refused")
    func refusedWords() throws {
        let words = RecoverySecret().words
        var swapped = words
        swapped.swapAt(0, 1)
        if swapped != words {
            #expect(throws: RecoverySecret.WordsError.self) {
                try RecoverySecret(words: swapped.joined(separator: " "))
            }
        }
        #expect(throws: RecoverySecret.WordsError.badChecksum) {
            try RecoverySecret(words: String(repeating: "abandon ", count: 24))
        }
        #expect(throws: RecoverySecret.WordsError.unknownWord("spotter")) {
            try RecoverySecret(words: (words.dropLast() + ["spotter"]).joined(separator: " "))
        }
        #expect(throws: RecoverySecret.WordsError.wrongCount(23)) {
            try RecoverySecret(words: words.dropLast().joined(separator: " "))
        }
    }

    @Test("a kit opens with the words for its user, and with nothing else")
    func kit() throws {
        // Given a recovery device's keys sealed under new words
        let keys = DeviceKeys()
        let secret = RecoverySecret()
        let user = IDs.group
        let kit = try RecoveryKit.seal(keys, secret: secret, userID: user)
        // Then the typed words open it to the same keys
        let opened = try RecoveryKit.open(
            kit, secret: RecoverySecret(words: secret.words.joined(separator: " ")), userID: user)
        #expect(opened.hpkePrivateRaw == keys.hpkePrivateRaw)
        #expect(opened.signingPrivateRaw == keys.signingPrivateRaw)
        // And other words, another user or a changed byte do not
        #expect(throws: E2EError.authenticationFailed) {
            try RecoveryKit.open(kit, secret: RecoverySecret(), userID: user)
        }
        #expect(throws: E2EError.authenticationFailed) { try RecoveryKit.open(kit, secret: secret, userID: UUID()) }
        var changed = kit
        changed[20] ^= 1
        #expect(throws: E2EError.authenticationFailed) { try RecoveryKit.open(changed, secret: secret, userID: user) }
        // The plaintext is the spec's JSON: 32-byte scalars, 65-byte points
        let json = try #require(try JSONSerialization.jsonObject(with: RecoveryKit.json(keys)) as? [String: String])
        #expect(Set(json.keys) == ["hpke_private", "hpke_public", "signing_private", "signing_public"])
        #expect(json["hpke_private"]?.count == 43 && json["hpke_public"]?.count == 87)
    }

    @Test("device keys survive their raw scalars, and bad scalars are refused")
    func deviceKeys() throws {
        let keys = DeviceKeys()
        let again = try DeviceKeys(hpkePrivate: keys.hpkePrivateRaw, signingPrivate: keys.signingPrivateRaw)
        #expect(again.hpkePublic == keys.hpkePublic && again.signingPublic == keys.signingPublic)
        #expect(keys.hpkePublic.count == 65 && keys.hpkePrivateRaw.count == 32)
        #expect(throws: E2EError.invalidPrivateKey) {
            try DeviceKeys(hpkePrivate: Data(count: 31), signingPrivate: Data(count: 32))
        }
        #expect(throws: E2EError.invalidPrivateKey) {
            try DeviceKeys(hpkePrivate: Data(count: 32), signingPrivate: Data(count: 32))
        }
        // A registration's JSON carries base64url keys, and a key off the curve is refused
        let registration = keys.registration(id: IDs.item, name: "Lou's phone", recovery: false)
        let json = try JSONEncoder().encode(registration)
        #expect(try JSONDecoder().decode(DeviceRegistration.self, from: json) == registration)
        var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["id"] as? String == "5a1e0000-0000-4000-8000-000000000003")
        object["hpke_public"] = "BA" + String(repeating: "A", count: 85)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DeviceRegistration.self, from: JSONSerialization.data(withJSONObject: object))
        }
    }
}
