import Crypto
import Foundation
import SpotterE2E
import Testing

/// Our wraps and words checked by implementations nobody here wrote: pyhpke and Trezor's mnemonic, from PyPI in
/// `.venv` (scripts/test installs them), run through `independent_check.py` beside this file.
@Suite("Against pyhpke and mnemonic")
struct InteropTests {
    struct Answer: Decodable {
        var opened: String?
        var sealed: String?
        var words: String?
        var fixture: [String]?
        var deviceCodes: [String]?

        enum CodingKeys: String, CodingKey {
            case opened, sealed, words, fixture
            case deviceCodes = "device_codes"
        }
    }

    static func check(_ request: [String: [String: String]]) throws -> Answer {
        struct NoPython: Error {}
        guard let python = SourceTree.python else { throw NoPython() }
        let process = Process()
        process.executableURL = python
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "independent_check.py")
        let argument = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        process.arguments = [script.path, argument]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errorText)")
        return try JSONDecoder().decode(Answer.self, from: text)
    }

    @Test(
        "pyhpke opens our wrapped epoch key, we open pyhpke's, and mnemonic gives our 24 words",
        .enabled(if: SourceTree.python != nil, "needs .venv with pyhpke and mnemonic (scripts/test makes it)"))
    func independentImplementations() throws {
        // Given an epoch key wrapped by us to a device, a key pyhpke will wrap to it, and a recovery secret
        let device = DeviceKeys()
        let epochKey = EpochKey()
        let group = UUID()
        let wrapped = try EpochKeyWrap.seal(epochKey, to: device.hpke.publicKey, groupID: group, epoch: 12)
        let info = Data("spotter-e2e-v1 epoch-key\n\(group.uuidString.lowercased())\n12".utf8)
        let theirKey = EpochKey()
        let secret = RecoverySecret()
        // When pyhpke and mnemonic are given the same inputs
        let answer = try Self.check([
            "open": ["sk_r": hex(device.hpkePrivateRaw), "info": hex(info), "wrapped": hex(wrapped)],
            "seal": ["pk_r": hex(device.hpkePublic), "info": hex(info), "pt": hex(theirKey.rawValue)],
            "words": ["entropy": hex(secret.entropy)],
        ])
        // Then pyhpke's plaintext is our epoch key, its wrap opens with our code, and the words are the same
        #expect(answer.opened == hex(epochKey.rawValue))
        let theirs = data(hex: try #require(answer.sealed))
        #expect(theirs.count == 113)
        #expect(
            try EpochKeyWrap.open(theirs, with: device.hpke, groupID: group, epoch: 12).rawValue == theirKey.rawValue)
        #expect(answer.words == secret.words.joined(separator: " "))
    }

    @Test(
        "the committed fixture reads the same with pyca/cryptography, pyhpke and mnemonic, following the spec alone",
        .enabled(if: SourceTree.python != nil, "needs .venv with pyhpke and mnemonic (scripts/test makes it)"))
    func fixtureIndependently() throws {
        let answer = try Self.check(["fixture": ["path": SourceTree.e2eFixture.path]])
        #expect(
            answer.fixture == [
                "epoch key", "wrapping key", "content key", "post", "blob", "device chain", "group chain",
                "safety number", "recovery",
            ])
    }

    @Test(
        "the device codes of Tests/Vectors/device-codes-v1.json are Python's, worked out from the spec alone",
        .enabled(if: SourceTree.python != nil, "needs .venv with pyhpke and mnemonic (scripts/test makes it)"))
    func deviceCodesIndependently() throws {
        let answer = try Self.check(["device_codes": ["path": DeviceCodeTests.file.path]])
        let vectors = try JSONDecoder().decode(
            DeviceCodeTests.Vectors.self, from: Data(contentsOf: DeviceCodeTests.file))
        #expect(answer.deviceCodes == vectors.cases.map(\.code))
    }
}
