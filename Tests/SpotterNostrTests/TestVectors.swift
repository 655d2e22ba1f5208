import Foundation
import SpotterNostr

/// Files under `Tests/SpotterNostrTests/Vectors/`, read from the source tree (the target excludes them).
enum TestVectors {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from name: String) throws -> Value {
        try JSONDecoder().decode(type, from: Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The project's Python with rust-nostr, when `scripts/test` (or a person) has made `.venv`.
    static var python: URL? {
        let python = repository.appendingPathComponent(".venv/bin/python")
        return FileManager.default.isExecutableFile(atPath: python.path) ? python : nil
    }
}

/// Hex of test data (upper or lower case), failing the test on anything else.
func bytes(hex: String) -> [UInt8] {
    var out: [UInt8] = []
    var iterator = hex.makeIterator()
    while let high = iterator.next(), let low = iterator.next() {
        guard let value = UInt8(String([high, low]), radix: 16) else { preconditionFailure("not hex: \(hex)") }
        out.append(value)
    }
    precondition(hex.count.isMultiple(of: 2), "odd hex: \(hex)")
    return out
}

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
