// SpotterE2E composes swift-crypto's primitives (AES-256-GCM); no cryptography is written by hand here.
import Foundation

/// A whole blob at once: the header, then the plaintext in 65,536-byte chunks (an empty blob is one empty
/// chunk), each sealed where it stands. For photos read or downloaded piece by piece, use `BlobEncryptor`,
/// `BlobDecryptor` or `BlobStreamDecryptor`.
///
/// ```swift
/// let blob = try BlobCipher.seal(jpeg, with: contentKey)
/// let jpegAgain = try BlobCipher.open(blob, with: contentKey)
/// ```
public enum BlobCipher {
    /// The blob's size on the wire for `plaintextCount` bytes: header, plaintext, a tag per chunk.
    public static func sealedCount(plaintextCount: Int) -> Int {
        let chunks = max(1, (plaintextCount + BlobHeader.chunkSize - 1) / BlobHeader.chunkSize)
        return BlobHeader.count + plaintextCount + 16 * chunks
    }

    public static func seal(
        _ plaintext: Data, with contentKey: ContentKey, header: BlobHeader = BlobHeader()
    ) throws
        -> Data
    {
        var encryptor = BlobEncryptor(contentKey: contentKey, header: header)
        var output = Data()
        output.reserveCapacity(sealedCount(plaintextCount: plaintext.count))
        output.append(header.bytes)
        var start = plaintext.startIndex
        repeat {
            let end = min(start + BlobHeader.chunkSize, plaintext.endIndex)
            // The last chunk is the one that reaches the end: 65,536 bytes give one chunk, not a full one and an
            // empty one.
            try encryptor.seal(chunk: plaintext[start..<end], isLast: end == plaintext.endIndex, into: &output)
            start = end
        } while start < plaintext.endIndex
        return output
    }

    /// Opens a whole blob, or throws `BlobError` and gives nothing.
    public static func open(_ blob: Data, with contentKey: ContentKey) throws(BlobError) -> Data {
        var decryptor = try BlobDecryptor(contentKey: contentKey, header: blob)
        let body = blob.dropFirst(BlobHeader.count)
        guard !body.isEmpty else { throw .truncated }
        var output = Data()
        output.reserveCapacity(max(0, body.count - 16 * (body.count / BlobHeader.sealedChunkSize + 1)))
        var start = body.startIndex
        while start < body.endIndex {
            let end = min(start + BlobHeader.sealedChunkSize, body.endIndex)
            try decryptor.open(chunk: body[start..<end], isLast: end == body.endIndex, into: &output)
            start = end
        }
        try decryptor.finish()
        return output
    }
}
