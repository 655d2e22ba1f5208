// SpotterE2E composes swift-crypto's primitives (AES-256-GCM); no cryptography is written by hand here.
import Foundation

/// Decrypts a blob from bytes as they arrive, in pieces of any size (a download's buffers).
///
/// A full chunk is held back until more bytes follow it, because only the end of the blob says which chunk is
/// last; so at most one sealed chunk (65,552 bytes) is buffered. `finish()` opens the last chunk. The plaintext
/// handed out before an error must be discarded with the blob.
///
/// ```swift
/// var reader = BlobStreamDecryptor(contentKey: key)
/// for try await buffer in download { file.write(try reader.append(buffer)) }
/// file.write(try reader.finish())
/// ```
public struct BlobStreamDecryptor: Sendable {
    private let contentKey: ContentKey
    private var decryptor: BlobDecryptor?
    private var pending = Data()

    public init(contentKey: ContentKey) { self.contentKey = contentKey }

    /// Takes the next bytes; the plaintext of every chunk now known not to be the last.
    public mutating func append(_ bytes: some DataProtocol) throws(BlobError) -> Data {
        pending.append(contentsOf: bytes)
        if decryptor == nil {
            guard pending.count >= BlobHeader.count else { return Data() }
            decryptor = try BlobDecryptor(contentKey: contentKey, header: pending)
            pending.removeFirst(BlobHeader.count)
        }
        var output = Data()
        var start = pending.startIndex
        while pending.endIndex - start > BlobHeader.sealedChunkSize {
            let end = start + BlobHeader.sealedChunkSize
            try decryptor!.open(chunk: pending[start..<end], isLast: false, into: &output)
            start = end
        }
        if start != pending.startIndex { pending = Data(pending[start...]) }
        return output
    }

    /// The end of the blob: opens the last chunk, which must carry the last flag.
    public mutating func finish() throws(BlobError) -> Data {
        guard var decryptor else {
            throw pending.isEmpty ? .truncated : .badHeader("shorter than 16 bytes")
        }
        guard !pending.isEmpty else { throw .truncated }
        let output = try decryptor.open(chunk: pending, isLast: true)
        try decryptor.finish()
        pending = Data()
        self.decryptor = decryptor
        return output
    }
}
