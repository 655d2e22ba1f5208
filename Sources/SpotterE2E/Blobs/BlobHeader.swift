// SpotterE2E composes swift-crypto's primitives (AES-256-GCM); no cryptography is written by hand here.
import Crypto
import Foundation

/// Why a blob was refused. Any of them refuses the whole blob: a client shows none of its bytes.
public enum BlobError: Error, Equatable, Sendable {
    /// Fewer than 16 bytes, or a header without `"SPB1"`, a chunk size other than 65,536, or a last byte not 0.
    case badHeader(String)
    /// No chunk after the header, or a last chunk shorter than a tag: the blob was cut.
    case truncated
    /// Chunk `index` failed to open: a changed byte, a chunk moved or taken from another blob, a blob cut at a
    /// chunk boundary (its new last chunk lacks the last flag), bytes added at the end, or the wrong key.
    case chunkRefused(index: Int)
    /// A chunk of the wrong size given to the incremental API (full chunks are 65,536 bytes of plaintext, 65,552
    /// sealed; only the last may be shorter).
    case badChunkSize(index: Int, count: Int)
    /// A chunk after the last one, or the end before the last one.
    case outOfOrder(String)
}

/// The 16-byte header: `"SPB1"` ‖ u32 chunk size (65,536) ‖ 7-byte nonce prefix ‖ `0x00`. It is every chunk's
/// `aad`, so a chunk from another blob (another prefix) fails, and the nonce prefix makes every chunk's nonce
/// unique for the content key.
public struct BlobHeader: Sendable, Equatable {
    public static let count = 16
    public static let magic = Data("SPB1".utf8)
    /// Plaintext bytes of every chunk but the last.
    public static let chunkSize = 65_536
    /// A full chunk on the wire: ciphertext and tag.
    public static let sealedChunkSize = chunkSize + 16

    /// The header's 16 bytes, as written before the chunks.
    public let bytes: Data

    /// A header with a random nonce prefix (or `noncePrefix`, 7 bytes, for fixtures).
    public init(noncePrefix: [UInt8]? = nil) {
        let prefix = noncePrefix ?? (0..<7).map { _ in UInt8.random(in: 0...255) }
        precondition(prefix.count == 7, "a nonce prefix is 7 bytes")
        var bytes = Self.magic
        withUnsafeBytes(of: UInt32(Self.chunkSize).bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: prefix)
        bytes.append(0)
        self.bytes = bytes
    }

    /// Reads the first 16 bytes of `data`, refusing anything but this version's header.
    public init(parsing data: some DataProtocol) throws(BlobError) {
        guard data.count >= Self.count else { throw .badHeader("shorter than 16 bytes") }
        let bytes = Data(data.prefix(Self.count))
        guard bytes.prefix(4) == Self.magic else { throw .badHeader("not SPB1") }
        let size = bytes[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard size == Self.chunkSize else { throw .badHeader("chunk size \(size), not 65536") }
        guard bytes[15] == 0 else { throw .badHeader("last header byte is not 0") }
        self.bytes = bytes
    }

    /// prefix ‖ u32 index ‖ last flag.
    func nonce(index: UInt32, isLast: Bool) -> AES.GCM.Nonce {
        var nonce = Data(bytes[8..<15])
        withUnsafeBytes(of: index.bigEndian) { nonce.append(contentsOf: $0) }
        nonce.append(isLast ? 1 : 0)
        return try! AES.GCM.Nonce(data: nonce)  // 12 bytes, always valid
    }
}
