import Foundation
import SpotterCore
import Testing

@testable import SpotterServer

/// What every blob store must do, run against each adapter: the local one, and S3 (SeaweedFS, which checks
/// signatures and expiry) whenever `scripts/test` runs. Presigned requests go through a plain HTTP client, as
/// a phone or a browser sends them.
@Suite("Blob store contract")
struct BlobStoreContractTests {
    @Test("put, get, info and delete round-trip an object", arguments: BlobBackend.available)
    func roundTrip(backend: BlobBackend) async throws {
        try await backend.withStore { store, key in
            // Given an object stored
            let photo = key("media/1/original")
            try await store.put(Data("a photo".utf8), at: photo, contentType: "image/jpeg")
            // Then it reads back whole, with its type and size
            #expect(try await store.get(photo) == Blob(data: Data("a photo".utf8), contentType: "image/jpeg"))
            #expect(try await store.info(photo) == BlobInfo(size: 7, contentType: "image/jpeg"))
            // When it is deleted, then it is gone
            try await store.delete(photo)
            #expect(try await store.get(photo) == nil)
            #expect(try await store.info(photo) == nil)
        }
    }

    @Test("a 5 MiB object round-trips byte for byte", arguments: BlobBackend.available)
    func largeObject(backend: BlobBackend) async throws {
        try await backend.withStore { store, key in
            let bytes = Data((0..<(5 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
            try await store.put(bytes, at: key("large"), contentType: "application/octet-stream")
            #expect(try await store.info(key("large"))?.size == 5 << 20)
            #expect(try await store.get(key("large"))?.data == bytes)
        }
    }

    @Test("what isn't there reads as nil and deletes without error", arguments: BlobBackend.available)
    func missing(backend: BlobBackend) async throws {
        try await backend.withStore { store, key in
            #expect(try await store.get(key("never")) == nil)
            #expect(try await store.info(key("never")) == nil)
            try await store.delete(key("never"))
            try await store.delete(key("never/deeper"))
        }
    }

    @Test("a put replaces the object, bytes and type together", arguments: BlobBackend.available)
    func overwrite(backend: BlobBackend) async throws {
        try await backend.withStore { store, key in
            try await store.put(Data("first version, longer".utf8), at: key("a"), contentType: "image/png")
            try await store.put(Data("second".utf8), at: key("a"), contentType: "image/webp")
            #expect(try await store.get(key("a")) == Blob(data: Data("second".utf8), contentType: "image/webp"))
            #expect(try await store.info(key("a")) == BlobInfo(size: 6, contentType: "image/webp"))
        }
    }

    @Test("concurrent puts to different keys all land", arguments: BlobBackend.available)
    func concurrentPuts(backend: BlobBackend) async throws {
        try await backend.withStore { store, key in
            let keys = (0..<24).map { key("media/\($0 % 3)/\($0)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, key) in keys.enumerated() {
                    group.addTask {
                        try await store.put(
                            Data(repeating: UInt8(index), count: 10_000 + index), at: key, contentType: "image/jpeg")
                    }
                }
                try await group.waitForAll()
            }
            for (index, key) in keys.enumerated() {
                let blob = try #require(try await store.get(key))
                #expect(blob.data == Data(repeating: UInt8(index), count: 10_000 + index))
            }
        }
    }

    @Test("keys with dots, dashes, underscores and slashes are kept apart", arguments: BlobBackend.available)
    func keyCharacters(backend: BlobBackend) async throws {
        try await backend.withStore { store, key in
            let names = ["x.jpg", "x-jpg", "x_jpg", "x/jpg", "deep/er/still/.hidden", "..dots..", "a.b/c-d/e_f"]
            for name in names {
                try await store.put(Data(name.utf8), at: key(name), contentType: "text/plain")
            }
            for name in names {
                #expect(try await store.get(key(name))?.data == Data(name.utf8), "\(name)")
            }
            // A prefix of keys is no object: it reads as nothing, and deleting it deletes nothing
            #expect(try await store.get(key("deep/er")) == nil)
            #expect(try await store.info(key("deep")) == nil)
            try await store.delete(key("deep/er"))
            #expect(try await store.get(key("deep/er/still/.hidden"))?.data == Data("deep/er/still/.hidden".utf8))
        }
    }

    @Test("a presigned upload stores the object and a presigned download returns it", arguments: BlobBackend.available)
    func presignedRoundTrip(backend: BlobBackend) async throws {
        try await backend.withStore { store, key in
            // Given a presigned upload, sent by a client with no credentials of its own
            let upload = try store.presignedUpload(
                to: key("media/2/original"), contentType: "image/jpeg", lifetime: .seconds(600), now: Date())
            #expect(upload.method == "PUT")
            #expect(upload.headers == ["Content-Type": "image/jpeg"])
            let sent = try await send(upload, body: Data("jpeg bytes".utf8))
            #expect((200..<300).contains(sent.status), "\(sent.status) \(String(decoding: sent.body, as: UTF8.self))")
            // Then the store holds it
            #expect(try await store.info(key("media/2/original")) == BlobInfo(size: 10, contentType: "image/jpeg"))
            // And a presigned download answers its bytes and type
            let download = try store.presignedDownload(of: key("media/2/original"), lifetime: .seconds(60), now: Date())
            let fetched = try await send(download)
            #expect(fetched.status == 200)
            #expect(fetched.body == Data("jpeg bytes".utf8))
            #expect(fetched.headers["content-type"] == "image/jpeg")
        }
    }

    @Test(
        "a tampered, redirected, mistyped or expired upload is refused and stores nothing",
        arguments: BlobBackend.available)
    func refusedUploads(backend: BlobBackend) async throws {
        try await backend.withStore { store, key in
            let target = key("media/3/original")
            let upload = try store.presignedUpload(
                to: target, contentType: "image/jpeg", lifetime: .seconds(600), now: Date())
            let bytes = Data("not allowed".utf8)

            // A signature with one character changed
            let tampered = try #require(Self.tamperingSignature(of: upload.url))
            #expect((400..<500).contains(try await send(upload, url: tampered, body: bytes).status))
            // The same signature on another key
            let moved = try #require(
                URL(
                    string: upload.url.absoluteString.replacingOccurrences(
                        of: "media/3/original", with: "media/3/elsewhere")))
            #expect((400..<500).contains(try await send(upload, url: moved, body: bytes).status))
            #expect(try await store.info(key("media/3/elsewhere")) == nil)
            // Another content type than the one signed
            #expect(
                (400..<500).contains(try await send(upload, headers: ["Content-Type": "text/html"], body: bytes).status)
            )
            // A link that expired an hour ago
            let expired = try store.presignedUpload(
                to: target, contentType: "image/jpeg", lifetime: .seconds(60), now: Date().addingTimeInterval(-3600))
            #expect(expired.expiresAt < Date())
            #expect((400..<500).contains(try await send(expired, body: bytes).status))

            #expect(try await store.info(target) == nil)
        }
    }

    @Test("a tampered, redirected or expired download is refused", arguments: BlobBackend.available)
    func refusedDownloads(backend: BlobBackend) async throws {
        try await backend.withStore { store, key in
            try await store.put(Data("private".utf8), at: key("a"), contentType: "image/png")
            try await store.put(Data("other".utf8), at: key("b"), contentType: "image/png")
            let download = try store.presignedDownload(of: key("a"), lifetime: .seconds(600), now: Date())
            #expect(try await send(download).status == 200)  // the genuine link works

            let tampered = try #require(Self.tamperingSignature(of: download.url))
            #expect((400..<500).contains(try await send(download, url: tampered).status))
            let moved = try #require(
                URL(
                    string: download.url.absoluteString.replacingOccurrences(
                        of: "\(key("a").rawValue)?", with: "\(key("b").rawValue)?")))
            #expect(moved != download.url)
            #expect((400..<500).contains(try await send(download, url: moved).status))
            let expired = try store.presignedDownload(
                of: key("a"), lifetime: .seconds(60), now: Date().addingTimeInterval(-3600))
            #expect((400..<500).contains(try await send(expired).status))
        }
    }

    /// The URL with the last hex digit of its signature changed (either adapter's parameter).
    static func tamperingSignature(of url: URL) -> URL? {
        var text = url.absoluteString
        guard text.range(of: "ignature=") != nil, let last = text.popLast() else { return nil }
        return URL(string: text + (last == "0" ? "1" : "0"))
    }
}
