import Foundation
import SpotterNostr
import Testing

/// BIP-340's own test vectors (bitcoin/bips `bip-0340/test-vectors.csv`, with the 2022 rows of messages that are
/// not 32 bytes long), run through Debian's libsecp256k1 as SpotterNostr binds it.
@Suite("BIP-340 Schnorr signatures")
struct BIP340Tests {
    struct Row: CustomTestStringConvertible {
        var index: Int
        var secretKey: String
        var publicKey: String
        var auxiliaryRandomness: String
        var message: String
        var signature: String
        var result: Bool
        var comment: String
        var testDescription: String { "row \(index)\(comment.isEmpty ? "" : ": \(comment)")" }
    }

    static let rows: [Row] = {
        let lines = (try? TestVectors.text("bip340-test-vectors.csv")) ?? ""
        return lines.split(whereSeparator: \.isNewline).dropFirst().map { line in
            let fields = line.split(separator: ",", maxSplits: 7, omittingEmptySubsequences: false).map(String.init)
            return Row(
                index: Int(fields[0])!, secretKey: fields[1], publicKey: fields[2], auxiliaryRandomness: fields[3],
                message: fields[4], signature: fields[5], result: fields[6] == "TRUE",
                comment: fields.count > 7 ? fields[7] : "")
        }
    }()

    @Test("the file holds all 19 rows, the variable-length messages among them")
    func fileIsComplete() {
        #expect(Self.rows.map(\.index) == Array(0...18))
        #expect(Self.rows.map { $0.message.count / 2 }.suffix(4) == [0, 1, 17, 100])
    }

    @Test("signing with the row's key and auxiliary randomness gives its signature byte for byte", arguments: rows)
    func signs(_ row: Row) throws {
        guard !row.secretKey.isEmpty else { return }
        // Given the row's secret key
        let key = try NostrSecretKey(hex: row.secretKey)
        // When it signs the row's message with the row's auxiliary randomness
        let signature = try key.sign(bytes(hex: row.message), auxiliaryRandomness: bytes(hex: row.auxiliaryRandomness))
        // Then the public key and the signature are the row's
        #expect(key.publicKey.rawValue == row.publicKey.lowercased())
        #expect(hex(signature) == row.signature.lowercased())
    }

    @Test("verification gives the row's result", arguments: rows)
    func verifies(_ row: Row) {
        let verified = Schnorr.verify(
            signature: bytes(hex: row.signature), message: bytes(hex: row.message), publicKey: bytes(hex: row.publicKey)
        )
        #expect(verified == row.result)
    }

    @Test("a signature stops verifying when any byte of it, the message or the key changes")
    func tamperedRowsFail() throws {
        let row = Self.rows[1]
        let signature = bytes(hex: row.signature)
        let message = bytes(hex: row.message)
        let publicKey = bytes(hex: row.publicKey)
        #expect(Schnorr.verify(signature: signature, message: message, publicKey: publicKey))
        for index in [0, 31, 32, 63] {
            var changed = signature
            changed[index] ^= 0x01
            #expect(!Schnorr.verify(signature: changed, message: message, publicKey: publicKey))
        }
        var changedMessage = message
        changedMessage[0] ^= 0x80
        #expect(!Schnorr.verify(signature: signature, message: changedMessage, publicKey: publicKey))
        #expect(!Schnorr.verify(signature: signature, message: message, publicKey: bytes(hex: Self.rows[2].publicKey)))
        #expect(!Schnorr.verify(signature: Array(signature.prefix(63)), message: message, publicKey: publicKey))
    }

    @Test("a secret key of zero, of the group order or of the wrong length is refused")
    func invalidSecretKeys() {
        #expect(throws: NostrKeyError.invalidSecretKey) { try NostrSecretKey(bytes: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: NostrKeyError.invalidSecretKey) {
            try NostrSecretKey(hex: "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141")
        }
        #expect(throws: NostrKeyError.invalidSecretKey) { try NostrSecretKey(bytes: [1]) }
        #expect(throws: NostrKeyError.invalidSecretKey) { try NostrSecretKey(hex: "not hex") }
    }

    @Test("a secret key prints as its public key only")
    func secretKeyDescription() throws {
        let key = try NostrSecretKey(hex: Self.rows[1].secretKey)
        for text in [String(describing: key), String(reflecting: key), "\(key)"] {
            #expect(!text.lowercased().contains(Self.rows[1].secretKey.lowercased()))
            #expect(text.contains(key.publicKey.rawValue))
        }
    }
}
