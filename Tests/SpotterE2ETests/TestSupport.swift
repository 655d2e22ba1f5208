import Foundation
import SpotterE2E

/// Files of the source tree the tests read (`Tests/Vectors/`), and the project's Python, which
/// `independent_check.py` runs in, as the Nostr tests find theirs (`TestVectors` in SpotterNostrTests).
enum SourceTree {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let repository = tests.deletingLastPathComponent()
    static let vectors = tests.appendingPathComponent("Vectors")
    static let e2eFixture = vectors.appendingPathComponent("spotter-e2e-v1.json")

    /// `.venv/bin/python` when `scripts/test` (or a person) has made `.venv`.
    static var python: URL? {
        let python = repository.appendingPathComponent(".venv/bin/python")
        return FileManager.default.isExecutableFile(atPath: python.path) ? python : nil
    }
}

/// Hex of test data, failing on anything else.
func data(hex: String) -> Data {
    precondition(hex.count.isMultiple(of: 2), "odd hex: \(hex)")
    var out = Data()
    var iterator = hex.makeIterator()
    while let high = iterator.next(), let low = iterator.next() {
        guard let value = UInt8(String([high, low]), radix: 16) else { preconditionFailure("not hex: \(hex)") }
        out.append(value)
    }
    return out
}

func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

/// `count` bytes whose byte `i` is `i % 251`: a pattern without a period of a power of two, so a chunk moved by
/// a whole number of chunks still differs.
func pattern(_ count: Int) -> Data { Data((0..<count).map { UInt8($0 % 251) }) }

/// A fixed group, item and user for tests whose ids do not matter.
enum IDs {
    static let group = UUID(uuidString: "5a1e0000-0000-4000-8000-000000000001")!
    static let otherGroup = UUID(uuidString: "5a1e0000-0000-4000-8000-000000000002")!
    static let item = UUID(uuidString: "5a1e0000-0000-4000-8000-000000000003")!
    static let otherItem = UUID(uuidString: "5a1e0000-0000-4000-8000-000000000004")!
}
