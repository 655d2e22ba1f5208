import Crypto
import Foundation
import SpotterE2E
import SpotterModels
import Testing

/// The code a new device shows to be approved (docs/encryption.md, "Approving a new device"), and
/// `Tests/Vectors/device-codes-v1.json`, which the browser's e2e.js and Python (independent_check.py) read too.
@Suite("Device codes")
struct DeviceCodeTests {
    struct Vectors: Codable {
        struct Case: Codable {
            var userID: String
            var device: SpotterE2E.DeviceRegistration
            var code: String

            enum CodingKeys: String, CodingKey {
                case userID = "user_id"
                case device, code
            }
        }
        var description: String
        var cases: [Case]
    }

    static let file = SourceTree.vectors.appendingPathComponent("device-codes-v1.json")

    @Test("the committed vectors' codes are SpotterE2E's")
    func vectors() throws {
        // Given the committed cases, each a person, a device's registration and the code
        let vectors = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: Self.file))
        #expect(vectors.cases.count >= 3)
        for vector in vectors.cases {
            // When the module works the code out, then it is the file's
            let user = try #require(UUIDText.parse(vector.userID))
            #expect(DeviceCode(userID: user, device: vector.device).description == vector.code)
        }
    }

    @Test("the code is SHA-256's first 60 bits in Crockford's base32, three groups of four, as the spec says")
    func layout() throws {
        // Given a device's keys, and the spec's input written out by hand
        let keys = DeviceKeys()
        let device = keys.registration(id: IDs.item, name: "Lou's laptop")
        let input =
            Data("spotter-e2e-v1 device-code\n\(IDs.group.uuidString.lowercased())\n".utf8)
            + Data("\(IDs.item.uuidString.lowercased())\n".utf8) + keys.hpkePublic + keys.signingPublic
        let digest = Array(SHA256.hash(data: input))
        let bits = String(
            digest.prefix(8).map { byte in (0..<8).map { byte >> (7 - $0) & 1 == 1 ? "1" : "0" }.joined() }.joined()
                .prefix(60))
        let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        let symbols = stride(from: 0, to: 60, by: 5).map { start -> Character in
            let index = bits.index(bits.startIndex, offsetBy: start)
            return alphabet[Int(bits[index..<bits.index(index, offsetBy: 5)], radix: 2)!]
        }
        // When the module works the code out
        let code = DeviceCode(userID: IDs.group, device: device)
        // Then it is those symbols, grouped by four
        #expect(code.symbols == String(symbols))
        #expect(code.description.split(separator: "-").map(\.count) == [4, 4, 4])
    }

    @Test("another key, another device id or another person gives another code")
    func bound() throws {
        // Given a device and its code
        let keys = DeviceKeys()
        let device = keys.registration(id: IDs.item, name: "laptop")
        let code = DeviceCode(userID: IDs.group, device: device)
        // When a server puts another key of its own in its place, or another id, or names another person
        var otherHPKE = device
        otherHPKE.hpkePublic = P256.KeyAgreement.PrivateKey().publicKey
        var otherSigning = device
        otherSigning.signingPublic = P256.Signing.PrivateKey().publicKey
        var otherID = device
        otherID.id = IDs.otherItem
        // Then each code differs; the name is not part of it
        #expect(DeviceCode(userID: IDs.group, device: otherHPKE) != code)
        #expect(DeviceCode(userID: IDs.group, device: otherSigning) != code)
        #expect(DeviceCode(userID: IDs.group, device: otherID) != code)
        #expect(DeviceCode(userID: IDs.otherGroup, device: device) != code)
        var renamed = device
        renamed.name = "tablet"
        #expect(DeviceCode(userID: IDs.group, device: renamed) == code)
    }

    @Test("a code typed in any case, spaced or dashed, with O for 0 and I or L for 1 reads the same; others don't")
    func typed() throws {
        let code = DeviceCode(userID: IDs.group, device: DeviceKeys().registration(id: IDs.item, name: "laptop"))
        let shown = code.description
        #expect(DeviceCode(typed: shown) == code)
        #expect(DeviceCode(typed: shown.lowercased()) == code)
        #expect(DeviceCode(typed: "  " + code.symbols.map(String.init).joined(separator: " ") + " ") == code)
        let misread = shown.replacingOccurrences(of: "0", with: "o").replacingOccurrences(of: "1", with: "l")
        #expect(DeviceCode(typed: misread) == code)
        // Too short, too long, or a symbol the alphabet lacks
        #expect(DeviceCode(typed: String(shown.dropLast())) == nil)
        #expect(DeviceCode(typed: shown + "A") == nil)
        #expect(DeviceCode(typed: "UUUU-UUUU-UUUU") == nil)
        #expect(DeviceCode(typed: "") == nil)
    }

    @Test(
        "write the device code vectors",
        .enabled(if: ProcessInfo.processInfo.environment["SPOTTER_E2E_WRITE_FIXTURE"] == "1", "writes only when asked"))
    func write() throws {
        let names = ["Ana's laptop", "Web browser", "terminal", "Lou's iPhone"]
        let cases = names.map { name in
            let user = UUIDv7.make()
            let device = DeviceKeys().registration(id: UUIDv7.make(), name: name)
            return Vectors.Case(
                userID: UUIDText.format(user), device: device,
                code: DeviceCode(userID: user, device: device).description)
        }
        let vectors = Vectors(
            description: "Device codes (docs/encryption.md, \"Approving a new device\"), made by "
                + "Tests/SpotterE2ETests/DeviceCodeTests.swift; read by e2e.js in Tests/Browser/test_e2e_crypto.py and "
                + "by Tests/SpotterE2ETests/independent_check.py.",
            cases: cases)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(vectors) + Data("\n".utf8)).write(to: Self.file)
    }
}
