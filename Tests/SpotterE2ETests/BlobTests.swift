import Crypto
import Foundation
import SpotterE2E
import Testing

/// STREAM-chunked blobs: sizes around the chunk boundaries, and every way a blob can be tampered with.
@Suite("Blobs in 64 KiB chunks")
struct BlobTests {
    static let chunk = 65_536
    static let sealedChunk = 65_552

    @Test(
        "a blob of any size round-trips, whole and incrementally",
        arguments: [0, 1, 65_535, 65_536, 65_537, 3 * 65_536, 1_000_003])
    func roundTrip(count: Int) throws {
        // Given a plaintext and a content key
        let plaintext = pattern(count)
        let key = ContentKey()
        // When it is sealed whole
        let blob = try BlobCipher.seal(plaintext, with: key)
        // Then it is header, plaintext and a tag per chunk (one empty chunk for an empty blob), and opens
        let chunks = max(1, (count + Self.chunk - 1) / Self.chunk)
        #expect(blob.count == 16 + count + 16 * chunks)
        #expect(blob.count == BlobCipher.sealedCount(plaintextCount: count))
        #expect(blob.prefix(4) == Data("SPB1".utf8))
        #expect(Array(blob[4..<8]) == [0, 1, 0, 0])
        #expect(blob[15] == 0)
        #expect(try BlobCipher.open(blob, with: key) == plaintext)
        // And the stream decryptor opens it from pieces of an awkward size
        var reader = BlobStreamDecryptor(contentKey: key)
        var streamed = Data()
        var start = 0
        while start < blob.count {
            let end = min(start + 40_000, blob.count)
            streamed += try reader.append(blob[start..<end])
            start = end
        }
        streamed += try reader.finish()
        #expect(streamed == plaintext)
    }

    @Test("the incremental encryptor writes what the whole-blob API writes for the same header")
    func incrementalMatchesWhole() throws {
        // Given 3.5 chunks, a key and a fixed header
        let plaintext = pattern(3 * Self.chunk + Self.chunk / 2)
        let key = ContentKey()
        let header = BlobHeader(noncePrefix: [1, 2, 3, 4, 5, 6, 7])
        // When they are sealed chunk by chunk
        var encryptor = BlobEncryptor(contentKey: key, header: header)
        var blob = header.bytes
        for start in stride(from: 0, to: plaintext.count, by: Self.chunk) {
            let end = min(start + Self.chunk, plaintext.count)
            blob += try encryptor.seal(chunk: plaintext[start..<end], isLast: end == plaintext.count)
        }
        // Then the bytes are the whole API's, and the chunk decryptor opens them one at a time
        #expect(blob == (try BlobCipher.seal(plaintext, with: key, header: header)))
        var decryptor = try BlobDecryptor(contentKey: key, header: blob.prefix(16))
        #expect(throws: BlobError.self) { try decryptor.finish() }
        var opened = Data()
        let body = blob.dropFirst(16)
        for start in stride(from: body.startIndex, to: body.endIndex, by: Self.sealedChunk) {
            let end = min(start + Self.sealedChunk, body.endIndex)
            opened += try decryptor.open(chunk: body[start..<end], isLast: end == body.endIndex)
        }
        try decryptor.finish()
        #expect(opened == plaintext)
        // And a chunk after the last, or a short chunk that is not last, is refused
        #expect(throws: BlobError.self) { try encryptor.seal(chunk: Data(), isLast: true) }
        var fresh = BlobEncryptor(contentKey: key)
        #expect(throws: BlobError.badChunkSize(index: 0, count: 10)) {
            try fresh.seal(chunk: Data(count: 10), isLast: false)
        }
    }

    /// A 3-chunk blob (2 full, 1 short) and its key, to tamper with.
    static func threeChunks() throws -> (blob: Data, key: ContentKey, plaintext: Data) {
        let plaintext = pattern(2 * chunk + 1000)
        let key = ContentKey()
        return (try BlobCipher.seal(plaintext, with: key), key, plaintext)
    }

    static func chunkRange(_ index: Int, in blob: Data) -> Range<Int> {
        let start = 16 + index * sealedChunk
        return start..<min(start + sealedChunk, blob.count)
    }

    @Test("a changed byte in any chunk, or in the header, refuses the blob")
    func changedByte() throws {
        let (blob, key, _) = try Self.threeChunks()
        for index in [16, 16 + 65_551, 16 + 65_552 + 7, blob.count - 1] {
            var changed = blob
            changed[index] ^= 0x01
            #expect(throws: BlobError.self) { try BlobCipher.open(changed, with: key) }
        }
        // The nonce prefix is in the header: changing it changes every nonce and the aad
        var header = blob
        header[9] ^= 0x01
        #expect(throws: BlobError.chunkRefused(index: 0)) { try BlobCipher.open(header, with: key) }
    }

    @Test("swapped chunks are refused")
    func reordered() throws {
        let (blob, key, _) = try Self.threeChunks()
        let first = blob[Self.chunkRange(0, in: blob)]
        let second = blob[Self.chunkRange(1, in: blob)]
        let swapped = blob.prefix(16) + second + first + blob[Self.chunkRange(2, in: blob)]
        #expect(swapped.count == blob.count)
        #expect(throws: BlobError.chunkRefused(index: 0)) { try BlobCipher.open(swapped, with: key) }
    }

    @Test("a chunk from another blob under the same key is refused")
    func otherBlobsChunk() throws {
        // Given two blobs of the same plaintext and key (so only their nonce prefixes differ)
        let (blob, key, plaintext) = try Self.threeChunks()
        let other = try BlobCipher.seal(plaintext, with: key)
        // When the second chunk of one is put into the other
        var mixed = blob
        mixed.replaceSubrange(Self.chunkRange(1, in: blob), with: other[Self.chunkRange(1, in: other)])
        // Then the blob is refused at that chunk
        #expect(throws: BlobError.chunkRefused(index: 1)) { try BlobCipher.open(mixed, with: key) }
    }

    @Test("a blob cut at a chunk boundary, cut mid-chunk, or cut to its header is refused")
    func truncated() throws {
        let (blob, key, _) = try Self.threeChunks()
        // At a boundary: the new last chunk was sealed without the last flag
        #expect(throws: BlobError.chunkRefused(index: 1)) {
            try BlobCipher.open(blob.prefix(16 + 2 * Self.sealedChunk), with: key)
        }
        #expect(throws: BlobError.chunkRefused(index: 0)) {
            try BlobCipher.open(blob.prefix(16 + Self.sealedChunk), with: key)
        }
        #expect(throws: BlobError.self) { try BlobCipher.open(blob.dropLast(5), with: key) }
        #expect(throws: BlobError.truncated) { try BlobCipher.open(blob.prefix(16), with: key) }
        #expect(throws: BlobError.truncated) {
            try BlobCipher.open(blob.prefix(16 + 2 * Self.sealedChunk + 10), with: key)
        }
        var reader = BlobStreamDecryptor(contentKey: key)
        _ = try reader.append(blob.prefix(16 + 2 * Self.sealedChunk))
        #expect(throws: BlobError.chunkRefused(index: 1)) { try reader.finish() }
    }

    @Test("bytes after the last chunk are refused")
    func trailingBytes() throws {
        let (blob, key, _) = try Self.threeChunks()
        for extra in [Data([0]), Data(count: 16), Data(count: 70_000)] {
            #expect(throws: BlobError.self) { try BlobCipher.open(blob + extra, with: key) }
        }
        // Also after a blob whose last chunk is full: the extra bytes make a chunk that cannot open
        let full = try BlobCipher.seal(pattern(Self.chunk), with: key)
        #expect(throws: BlobError.self) { try BlobCipher.open(full + Data(count: 20), with: key) }
    }

    @Test("the wrong key, a wrong magic, chunk size or last header byte is refused")
    func wrongKeyAndHeader() throws {
        let (blob, key, _) = try Self.threeChunks()
        #expect(throws: BlobError.chunkRefused(index: 0)) { try BlobCipher.open(blob, with: ContentKey()) }
        var magic = blob
        magic[0] = UInt8(ascii: "X")
        #expect(throws: BlobError.badHeader("not SPB1")) { try BlobCipher.open(magic, with: key) }
        var size = blob
        size[7] = 0x02
        #expect(throws: BlobError.badHeader("chunk size 65538, not 65536")) { try BlobCipher.open(size, with: key) }
        var last = blob
        last[15] = 1
        #expect(throws: BlobError.badHeader("last header byte is not 0")) { try BlobCipher.open(last, with: key) }
        #expect(throws: BlobError.badHeader("shorter than 16 bytes")) {
            try BlobCipher.open(blob.prefix(15), with: key)
        }
    }

    @Test("chunk i is AES-256-GCM with nonce prefix ‖ u32 i ‖ last flag and the header as aad")
    func layout() throws {
        // Given a two-chunk blob with a known prefix
        let key = ContentKey()
        let prefix: [UInt8] = [9, 8, 7, 6, 5, 4, 3]
        let plaintext = pattern(Self.chunk + 3)
        let blob = try BlobCipher.seal(plaintext, with: key, header: BlobHeader(noncePrefix: prefix))
        let header = blob.prefix(16)
        // Then swift-crypto opens each chunk directly with the spec's nonces
        let first = blob[16..<16 + Self.sealedChunk]
        let second = blob[(16 + Self.sealedChunk)...]
        let box0 = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: prefix + [0, 0, 0, 0, 0]), ciphertext: first.dropLast(16), tag: first.suffix(16))
        let box1 = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: prefix + [0, 0, 0, 1, 1]), ciphertext: second.dropLast(16),
            tag: second.suffix(16))
        #expect(try AES.GCM.open(box0, using: key.key, authenticating: header) == plaintext.prefix(Self.chunk))
        #expect(try AES.GCM.open(box1, using: key.key, authenticating: header) == plaintext.suffix(3))
    }

    @Test("the stream decryptor refuses what the whole-blob API refuses")
    func streamRefusals() throws {
        let (blob, key, _) = try Self.threeChunks()
        func stream(_ bytes: Data) throws -> Data {
            var reader = BlobStreamDecryptor(contentKey: key)
            var out = try reader.append(bytes.prefix(100_000))
            out += try reader.append(bytes.dropFirst(100_000))
            return out + (try reader.finish())
        }
        var changed = blob
        changed[70_000] ^= 0x01
        var swapped = blob
        swapped.replaceSubrange(Self.chunkRange(0, in: blob), with: blob[Self.chunkRange(1, in: blob)])
        swapped.replaceSubrange(Self.chunkRange(1, in: blob), with: blob[Self.chunkRange(0, in: blob)])
        for bad in [changed, swapped, blob + Data(count: 3), blob.prefix(16 + 2 * Self.sealedChunk), blob.prefix(10)] {
            #expect(throws: BlobError.self) { try stream(bad) }
        }
        #expect(try stream(blob) == pattern(2 * Self.chunk + 1000))
    }
}
