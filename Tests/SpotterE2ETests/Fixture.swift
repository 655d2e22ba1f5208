import Foundation
import SpotterE2E
import SpotterModels

/// `Tests/Vectors/spotter-e2e-v1.json`: one run's keys and ciphertexts, for the browser's e2e.js to open and
/// for FixtureTests to keep opening, so neither implementation drifts from the other unnoticed. Binary values are
/// base64url without padding, ids lowercase UUIDs, as on the wire.
struct Fixture: Codable {
    struct KeyPairs: Codable {
        var hpkePrivate: String
        var hpkePublic: String
        var signingPrivate: String
        var signingPublic: String
    }
    struct Device: Codable {
        var id: String
        var name: String
        var keys: KeyPairs
    }
    struct EpochKeyCase: Codable {
        var groupID: String
        var epoch: UInt32
        /// HPKE's info, as text.
        var info: String
        var key: String
        /// enc ‖ ct, wrapped to `device`.
        var wrapped: String
        var wrappingKey: String
    }
    struct ContentKeyCase: Codable {
        var itemID: String
        var key: String
        /// nonce ‖ ct ‖ tag under `epochKey.wrappingKey`.
        var wrapped: String
        var aad: String
    }
    struct PostCase: Codable {
        var postID: String
        /// The post's content key is `contentKey` (its item id is the post id).
        var plaintext: String
        var aad: String
        var sealed: String
    }
    struct BlobCase: Codable {
        var contentKey: String
        var plaintextPattern: String
        var plaintextLength: Int
        var plaintextSHA256: String
        var noncePrefix: String
        var sealedLength: Int
        var sealed: String
    }
    struct Member: Codable, Equatable {
        var user: String
        var role: String
    }
    struct DeviceChainCase: Codable {
        var userID: String
        var devices: [Device]
        var statements: [SignedStatement]
        var liveDeviceIDs: [String]
        var head: String
    }
    struct GroupChainCase: Codable {
        var groupID: String
        /// The device chains of the people who signed, by user id.
        var deviceChains: [String: [SignedStatement]]
        var statements: [SignedStatement]
        var members: [Member]
        var head: String
    }
    struct SafetyCase: Codable {
        var userID: String
        var signingPublicKeys: [String]
        var number: String
    }
    struct RecoveryCase: Codable {
        var userID: String
        var entropy: String
        var words: String
        var keys: KeyPairs
        var kitPlaintext: String
        var kit: String
    }

    var description: String
    var device: Device
    var epochKey: EpochKeyCase
    var contentKey: ContentKeyCase
    var post: PostCase
    var blob: BlobCase
    var deviceChain: DeviceChainCase
    var groupChain: GroupChainCase
    var safetyNumber: SafetyCase
    var recovery: RecoveryCase

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .custom { path in FixtureKey(camelCase: path.last!.stringValue) }
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in FixtureKey(snakeCase: path.last!.stringValue) }
        return decoder
    }

    static func read() throws -> Fixture {
        try decoder.decode(Fixture.self, from: Data(contentsOf: SourceTree.e2eFixture))
    }
}

extension Fixture.KeyPairs {
    init(_ keys: DeviceKeys) {
        hpkePrivate = Base64URL.encode(keys.hpkePrivateRaw)
        hpkePublic = Base64URL.encode(keys.hpkePublic)
        signingPrivate = Base64URL.encode(keys.signingPrivateRaw)
        signingPublic = Base64URL.encode(keys.signingPublic)
    }

    func deviceKeys() throws -> DeviceKeys {
        try DeviceKeys(hpkePrivate: b64(hpkePrivate), signingPrivate: b64(signingPrivate))
    }
}

/// Base64url of test data, failing on anything else.
func b64(_ text: String) -> Data {
    guard let data = Base64URL.decode(text) else { preconditionFailure("not base64url: \(text)") }
    return data
}

/// This file's names as the fixture's snake_case keys and back, whose initialisms (`groupID`, `plaintextSHA256`)
/// `.convertFromSnakeCase` would spell `groupId`.
struct FixtureKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(snakeCase: String) {
        let words = snakeCase.split(separator: "_").map(String.init)
        let rest = words.dropFirst().map { word in
            switch word {
            case "id": "ID"
            case "ids": "IDs"
            case "sha256": "SHA256"
            default: word.prefix(1).uppercased() + word.dropFirst()
            }
        }
        stringValue = ([words.first ?? ""] + rest).joined()
    }

    init(camelCase: String) {
        var text = ""
        let words = camelCase.replacingOccurrences(of: "IDs", with: "Ids").replacingOccurrences(of: "ID", with: "Id")
            .replacingOccurrences(of: "SHA256", with: "Sha256")
        for character in words {
            if character.isUppercase { text += "_" }
            text += character.lowercased()
        }
        stringValue = text
    }

    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
