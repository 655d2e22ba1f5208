// SpotterE2E composes swift-crypto's primitives (AES-256-GCM); no cryptography is written by hand here.
import Crypto
import Foundation

/// Decrypts a blob chunk by chunk, given the chunks as the reader cut them: 65,552 bytes each, the remainder
/// (16 to 65,552 bytes) last.
///
/// Each chunk must open at its place with its flag, so a chunk moved, a chunk of another blob, a changed byte or
/// a blob cut at a chunk boundary fails; `finish()` fails when the last chunk never came. A caller that gets any
/// error discards every plaintext chunk it was given.
///
/// ```swift
/// var decryptor = try BlobDecryptor(contentKey: key, header: headerBytes)
/// let first = try decryptor.open(chunk: sealedChunk, isLast: false)
/// ```
public struct BlobDecryptor: Sendable {
    public let header: BlobHeader
    private let key: SymmetricKey
    private var index: UInt32 = 0
    private var finished = false

    public init(contentKey: ContentKey, header: some DataProtocol) throws(BlobError) {
        self.header = try BlobHeader(parsing: header)
        self.key = contentKey.key
    }

    /// Opens the next chunk (`ct ‖ tag`) and appends its plaintext to `output`.
    public mutating func open(chunk: some DataProtocol, isLast: Bool, into output: inout Data) throws(BlobError) {
        guard !finished else { throw .outOfOrder("a chunk after the last one") }
        guard
            chunk.count == BlobHeader.sealedChunkSize
                || (isLast && (16..<BlobHeader.sealedChunkSize).contains(chunk.count))
        else { throw chunk.count < 16 ? .truncated : .badChunkSize(index: Int(index), count: chunk.count) }
        do {
            let tagStart = chunk.index(chunk.endIndex, offsetBy: -16)
            let box = try AES.GCM.SealedBox(
                nonce: header.nonce(index: index, isLast: isLast), ciphertext: chunk[chunk.startIndex..<tagStart],
                tag: chunk[tagStart...])
            output.append(try AES.GCM.open(box, using: key, authenticating: header.bytes))
        } catch {
            throw .chunkRefused(index: Int(index))
        }
        if isLast {
            finished = true
        } else {
            guard index < UInt32.max else { throw .outOfOrder("more than 2^32 chunks") }
            index += 1
        }
    }

    /// Opens the next chunk; its plaintext.
    public mutating func open(chunk: some DataProtocol, isLast: Bool) throws(BlobError) -> Data {
        var output = Data()
        try open(chunk: chunk, isLast: isLast, into: &output)
        return output
    }

    /// Fails unless the last chunk was opened: a blob cut short is refused, not shown in part.
    public func finish() throws(BlobError) {
        guard finished else { throw .outOfOrder("the blob ended before its last chunk") }
    }
}
