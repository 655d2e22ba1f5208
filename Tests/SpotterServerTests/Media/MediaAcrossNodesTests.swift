import Foundation
import Hummingbird
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// Two nodes on one PostgreSQL database and one S3 bucket, each with a data folder of its own: a photo
/// presigned on one, completed on the other, processed by whichever claims it, is served by both.
@Suite("Photos across nodes")
struct MediaAcrossNodesTests {
    @Test(
        "an upload started on one node is completed, processed and served by any node",
        .enabled(if: StorageBackend.available.contains(.postgres) && BlobBackend.available.contains(.s3)))
    func sharedBucket() async throws {
        // A data folder each, and the shared bucket
        try await TestApp.runTwoNodes(configure: { BlobBackend.s3.configure(&$0) }) { a, b in
            let ana = try await a.user("ana")
            let photo = try TestImages.encode(TestImages.cornered(width: 320, height: 240), as: ".jpg")

            // Presigned on A, sent to the bucket, completed on B
            let upload = try await a.presign(ana, byteSize: photo.count)
            #expect(try await a.send(photo, to: upload) == 200)
            #expect(try await b.complete(ana, upload.id).status == .accepted)
            // Processed by whichever node claimed it, seen ready on both
            let ready = try await a.settled(ana, upload.id)
            #expect(ready.status == .ready)
            #expect(
                try await b.call(.get, "/api/v1/media/\(upload.id)", token: ana).decode(Media.self) == ready)

            // Posted on B, its photo served by A and by B
            let post = try await b.post(ana, "Both nodes", media: [upload.id])
            let url = try #require(post.media.first?.url)
            #expect(try await a.fetch(url).status == .ok)
            #expect(try await b.fetch(url).status == .ok)
            #expect(Data(buffer: try await a.fetch(url).body) == Data(buffer: try await b.fetch(url).body))
        }
    }
}
