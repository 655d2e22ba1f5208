import Foundation
import SpotterImaging
import SpotterKit
import SpotterModels
import SpotterTestSupport
import Testing

/// Photos made ready on the device before they are queued (issue 40, item 10), as the Nova seed sends them:
/// larger than 2,048 px scaled to fit and sent as a JPEG at 85 with no metadata; smaller ones as they are.
@Suite("Photo preparation")
struct PhotoPreparationTests {
    static let password = "correct horse battery"

    /// libvips' preparer, as the terminal client wires it (`VipsPhotoPreparer`; ImageIO's on Apple platforms).
    struct Vips: PhotoPreparing {
        func prepare(_ photo: PhotoToUpload) async throws -> PhotoToUpload {
            guard
                let fitted = try ClientPhoto.fitted(
                    photo.data, maxSide: PhotoPreparation.maxSide, quality: PhotoPreparation.quality)
            else { return photo }
            return PhotoToUpload(
                data: fitted, contentType: "image/jpeg", description: photo.description, focus: photo.focus)
        }
    }

    @Test("a 4,000 × 3,000 photo is queued at 2,048 × 1,536 as a smaller JPEG without its EXIF; a small one as it is")
    func resized() async throws {
        try await UploadQueueTests.withServer(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given a phone's 12-megapixel photo carrying where it was taken, and a small one
            let ana = try await LiveServer.person("ana", url, password: Self.password)
            let large = try TestImages.exiftool(
                try TestImages.encode(TestImages.cornered(width: 4000, height: 3000), as: ".jpg[Q=95]"),
                ["-Make=Phone", "-GPSLatitude=48.85", "-GPSLatitudeRef=N"])
            #expect(try TestImages.exiftoolTags(large).keys.contains { $0.hasPrefix("GPS:") })
            let small = try TestImages.encode(TestImages.cornered(width: 64, height: 48), as: ".jpg[Q=90]")

            // When the preparer makes each ready
            let ready = try await Vips().prepare(PhotoToUpload(data: large, contentType: "image/jpeg"))
            let untouched = try await Vips().prepare(PhotoToUpload(data: small, contentType: "image/jpeg"))

            // Then the large one fits 2,048 px, is a fraction of its size and says nothing of where or what
            let pixels = try TestImages.decode(ready.data)
            #expect((pixels.width, pixels.height) == (2048, 1536))
            #expect(ready.contentType == "image/jpeg")
            #expect(ready.data.count * 3 < large.count)
            let tags = try TestImages.exiftoolTags(ready.data)
            #expect(!tags.keys.contains { $0.hasPrefix("GPS:") || $0.hasSuffix(":Make") })
            // And the small one is the same bytes
            #expect(untouched.data == small)

            // When a post with both is queued
            let queue = try UploadQueue(path: nil, client: ana, photos: Vips())
            let job = try await queue.enqueue(
                CreatePostRequest(kind: .note, text: "Summit"),
                photos: [
                    PhotoToUpload(data: large, contentType: "image/jpeg", description: "The ridge"),
                    PhotoToUpload(data: small, contentType: "image/jpeg"),
                ])

            // Then what waits is what was made ready, and the post goes out with both
            #expect(job.photos.map(\.byteSize) == [ready.data.count, small.count])
            #expect(job.photos.first?.description == "The ridge")
            guard case .posted(_, let post) = try #require(await queue.drain().first) else {
                Issue.record("the post did not go")
                return
            }
            #expect(post.media.count == 2)
        }
    }
}
