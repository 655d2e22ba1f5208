import Foundation
import Testing

@testable import SpotterImaging

/// Our BlurHash encoder against PyPI's `blurhash` (a port of Wolt's reference), byte for byte: 40 hashes it made
/// (`scripts/blurhash-vectors.py`) of solid colours, gradients, noise, a checkerboard and photo-like scenes,
/// from 1×1 to 32×32 pixels, with 1×1 to 9×9 components.
@Suite("BlurHash")
struct BlurHashTests {
    struct Vector: Decodable {
        let name: String
        let width: Int
        let height: Int
        let componentsX: Int
        let componentsY: Int
        let rgb: String
        let hash: String

        enum CodingKeys: String, CodingKey {
            case name, width, height, rgb, hash
            case componentsX = "components_x"
            case componentsY = "components_y"
        }
    }

    static let vectors: [Vector] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "blurhash-vectors.json")
        // A missing or unreadable file fails the test below (no vectors), rather than passing with none.
        guard let data = try? Data(contentsOf: file) else { return [] }
        return (try? JSONDecoder().decode([Vector].self, from: data)) ?? []
    }()

    @Test("the file holds the reference's vectors")
    func vectorsPresent() {
        #expect(Self.vectors.count == 40)
    }

    @Test("each hash is the reference's, byte for byte", arguments: Self.vectors.indices)
    func matchesReference(index: Int) throws {
        let vector = Self.vectors[index]
        let pixels = try #require(Data(base64Encoded: vector.rgb))
        let hash = BlurHash.encode(
            rgb: pixels, width: vector.width, height: vector.height, componentsX: vector.componentsX,
            componentsY: vector.componentsY)
        #expect(hash == vector.hash, "\(vector.name) \(vector.componentsX)×\(vector.componentsY)")
    }

    @Test("4×3 components make a 28-character hash starting with L")
    func length() {
        // Given 4×3 components, when encoded, then 4 characters of header and 2 for each of the 12 components.
        let hash = BlurHash.encode(rgb: [UInt8](repeating: 90, count: 8 * 6 * 3), width: 8, height: 6)
        #expect(hash.count == 4 + 2 * 12)
        #expect(hash.first == "L")  // (4 − 1) + (3 − 1) × 9 = 21 → "L" in base 83
    }
}
