// SpotterE2E composes swift-crypto's primitives (AES-256-GCM); no cryptography is written by hand here.
import Crypto
import Foundation

/// Encrypts a blob chunk by chunk (STREAM, Hoang–Reyhanitabar–Rogaway–Vizár 2015), so a 12 MB photo is read,
/// sealed and written 64 KiB at a time rather than held in two more full copies.
///
/// Write `header.bytes`, then each chunk's output in order; every chunk but the last carries exactly 65,536
/// plaintext bytes, and the last (possibly empty) is sealed with `isLast: true`.
///
/// ```swift
/// var encryptor = BlobEncryptor(contentKey: key)
/// file.write(encryptor.header.bytes)
/// for (chunk, isLast) in chunks { file.write(try encryptor.seal(chunk: chunk, isLast: isLast)) }
/// ```
public struct BlobEncryptor: Sendable {
    public let header: BlobHeader
    private let key: SymmetricKey
    private var index: UInt32 = 0
    private var finished = false

    public init(contentKey: ContentKey, header: BlobHeader = BlobHeader()) {
        self.key = contentKey.key
        self.header = header
    }

    /// Seals the next chunk and appends `ct ‖ tag` to `output`.
    public mutating func seal(chunk: some DataProtocol, isLast: Bool, into output: inout Data) throws {
        guard !finished else { throw BlobError.outOfOrder("a chunk after the last one") }
        guard chunk.count == BlobHeader.chunkSize || (isLast && chunk.count < BlobHeader.chunkSize) else {
            throw BlobError.badChunkSize(index: Int(index), count: chunk.count)
        }
        let box = try AES.GCM.seal(
            chunk, using: key, nonce: header.nonce(index: index, isLast: isLast), authenticating: header.bytes)
        // `combined` is nonce ‖ ct ‖ tag; the chunk is the part after the nonce, appended without another copy.
        output.append(box.combined!.dropFirst(12))
        if isLast {
            finished = true
        } else {
            guard index < UInt32.max else { throw BlobError.outOfOrder("more than 2^32 chunks") }
            index += 1
        }
    }

    /// Seals the next chunk; its `ct ‖ tag`.
    public mutating func seal(chunk: some DataProtocol, isLast: Bool) throws -> Data {
        var output = Data()
        output.reserveCapacity(chunk.count + 16)
        try seal(chunk: chunk, isLast: isLast, into: &output)
        return output
    }
}
