import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// Photos through the API, on both databases and both blob stores: the upload flow, what processing keeps out,
/// who may fetch a photo, avatars, edits and the sweep.
@Suite("Photos over HTTP")
struct MediaAPITests {
    @Test(
        "presign, upload straight to the store, complete: the photo is processed, stripped of its GPS, and posted",
        arguments: StorageBackend.available, BlobBackend.available)
    func uploadFlow(database: StorageBackend, blobs: BlobBackend) async throws {
        try await TestApp.run(database, configure: blobs.configure) { api in
            // Given a phone photo whose EXIF says where it was taken, and that it was held sideways
            let ana = try await api.user("ana")
            let photo = try TestImages.exiftool(
                try TestImages.encode(TestImages.cornered(width: 640, height: 480), as: ".jpg[Q=90]"),
                [
                    "-GPSLatitude=52.5200", "-GPSLatitudeRef=N", "-GPSLongitude=13.4050", "-GPSLongitudeRef=E",
                    "-Orientation=6", "-n",
                ])

            // When it goes through the upload flow with alt text
            let media = try await api.uploadPhoto(ana, photo, description: "Sunrise over the track")

            // Then it is ready, turned upright (480×640), with a placeholder, and its alt text
            #expect(media.status == .ready)
            #expect(media.width == 480 && media.height == 640)
            #expect((media.blurhash?.count ?? 0) >= 6)
            #expect(media.description == "Sunrise over the track")

            // Before any post takes it, its owner's signed preview opens it (the composer shows it), and the plain
            // path opens it for nobody
            let preview = try #require(media.previewURL)
            #expect(preview.contains("signature="))
            #expect(try await api.fetch(preview).status == .ok)
            #expect(try await api.fetch(MediaLinks.path(media.id, .small), token: ana).status == .notFound)

            // And a post carries it; anyone may fetch a public post's photo, and it has no metadata left
            let post = try await api.post(ana, "Morning session #run", media: [media.id])
            let attachment = try #require(post.media.first)
            #expect(post.media.count == 1 && attachment.id == media.id)
            #expect(attachment.width == 480 && attachment.description == "Sunrise over the track")
            let large = try await api.fetch(attachment.url)
            #expect(large.status == .ok)
            #expect(large.headers[.contentType] == "image/jpeg")
            #expect(large.headers[.cacheControl]?.hasPrefix("public") == true)
            let tags = try TestImages.exiftoolTags(Data(buffer: large.body))
            #expect(!tags.keys.contains { $0.contains("GPS") || $0.hasPrefix("IFD0") || $0.hasPrefix("ExifIFD") })
            let small = try await api.fetch(attachment.previewURL)
            #expect(small.status == .ok)
            let smallPixels = try TestImages.decode(Data(buffer: small.body))
            #expect(max(smallPixels.width, smallPixels.height) == 400)

            // And the photo shows in feeds with the same attachment
            let feed = try await api.feed("/api/v1/feeds/global", token: nil)
            #expect(feed.items.first { $0.id == post.id }?.media.map(\.id) == [media.id])
        }
    }

    @Test(
        "every refusal is a clear 4xx, and nothing is kept half-stored", arguments: StorageBackend.available,
        BlobBackend.available)
    func refusals(database: StorageBackend, blobs: BlobBackend) async throws {
        try await TestApp.run(database, configure: blobs.configure) { api in
            let ana = try await api.user("ana")

            // A type that isn't a photo, and a size over the limit, are refused before any upload
            let gif = try await api.call(
                .post, "/api/v1/media", token: ana,
                body: CreateMediaRequest(contentType: "image/gif", byteSize: 100, purpose: .post))
            #expect(gif.status == .unprocessableContent)
            #expect(try gif.problem().errors?.map(\.field) == ["content_type"])
            let huge = try await api.call(
                .post, "/api/v1/media", token: ana,
                body: CreateMediaRequest(contentType: "image/jpeg", byteSize: 17 << 20, purpose: .post))
            #expect(huge.status == .unprocessableContent)
            let detail = try huge.problem().errors?.first
            #expect(detail?.field == "byte_size" && detail?.detail == "is larger than 16 MB")

            // Completing before uploading is a conflict, and the upload can still be made
            let early = try await api.presign(ana, byteSize: 1000)
            #expect(try await api.complete(ana, early.id).status == .conflict)

            // Text under an image type, a cut-short JPEG and a decompression bomb fail in processing, with a
            // reason, and their bytes are gone
            let jpeg = try TestImages.encode(TestImages.cornered(width: 320, height: 240), as: ".jpg")
            let cases: [(Data, String, String)] = [
                (Data("not a photo at all, just words".utf8), "image/jpeg", "not a JPEG"),
                (jpeg.prefix(jpeg.count / 2), "image/jpeg", "cut short"),
                (try TestImages.black(width: 10_000, height: 5_000, bands: 1, as: ".png"), "image/png", "megapixels"),
            ]
            for (data, type, reason) in cases {
                let media = try await api.uploadPhoto(ana, data, contentType: type)
                #expect(media.status == .failed, "\(reason)")
                #expect(media.reason?.contains(reason) == true, "\(media.reason ?? "no reason") lacks \(reason)")
                #expect(media.url == nil)
                try await blobs.inspect(api) { store in
                    let kept = try await store.info(MediaRecord.originalKey(media.id))
                    #expect(kept == nil)
                }
            }

            // Someone else's photo, an unfinished upload and a failed one cannot go into a post
            let bo = try await api.user("bob")
            let bos = try await api.uploadPhoto(bo, jpeg)
            let unfinished = try await api.presign(ana, byteSize: jpeg.count)
            for (id, detail) in [(bos.id, "not one of your photos"), (unfinished.id, "not been uploaded")] {
                let refused = try await api.call(
                    .post, "/api/v1/posts", token: ana,
                    body: CreatePostRequest(kind: .note, text: "mine?", mediaIDs: [id]))
                #expect(refused.status == .unprocessableContent)
                let error = try refused.problem().errors?.first
                #expect(error?.field == "media_ids[0]" && error?.detail.contains(detail) == true)
            }
            // And nobody else learns an upload exists
            #expect(try await api.call(.get, "/api/v1/media/\(bos.id)", token: ana).status == .notFound)
            #expect(try await api.complete(ana, bos.id).status == .notFound)
            #expect(try await api.call(.get, "/api/v1/media/\(bos.id)").status == .unauthorized)
        }
    }

    @Test(
        "a presigned upload larger than declared and than the limit is refused at completion, and deleted",
        arguments: StorageBackend.available, BlobBackend.available)
    func realSizeChecked(database: StorageBackend, blobs: BlobBackend) async throws {
        try await TestApp.run(
            database,
            configure: {
                blobs.configure(&$0)
                $0.media.limits.maxBytes = 64 * 1024  // a photo limit below what the store itself takes
            }
        ) { api in
            // Given an upload declared small, and a photo of some 200 KB sent to its link instead (a presigned
            // PUT bounds the type and the key, not the size)
            let ana = try await api.user("ana")
            var noise = TestImages.Pixels(width: 400, height: 300, bands: 3, bytes: [])
            var generator = SystemRandomNumberGenerator()
            noise.bytes = (0..<400 * 300 * 3).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let photo = try TestImages.encode(noise, as: ".jpg[Q=95]")
            #expect(photo.count > 64 * 1024)
            let upload = try await api.presign(ana, byteSize: 1000)
            #expect(try await api.send(photo, to: upload) == 200)

            // When it is completed, it is refused naming the limit, and its bytes are gone
            let completed = try await api.complete(ana, upload.id)
            #expect(completed.status == .unprocessableContent)
            let error = try completed.problem().errors?.first
            #expect(error?.field == "byte_size" && error?.detail == "is larger than 64 KB")
            let media = try await api.call(.get, "/api/v1/media/\(upload.id)", token: ana).decode(Media.self)
            #expect(media.status == .failed && media.reason == "The photo is larger than 64 KB.")
            try await blobs.inspect(api) { store in
                let left = try await store.info(MediaRecord.originalKey(upload.id))
                #expect(left == nil)
            }
        }
    }

    @Test(
        "a followers-only photo reaches followers only; strangers, blocked and signed-out people get nothing",
        arguments: StorageBackend.available, BlobBackend.available)
    func privacy(database: StorageBackend, blobs: BlobBackend) async throws {
        try await TestApp.run(database, configure: blobs.configure) { api in
            // Given ana's followers-only post with a photo, bo following her, cy a stranger, di blocked
            let ana = try await api.user("ana")
            let bo = try await api.user("bob")
            let cy = try await api.user("cyd")
            let di = try await api.user("dia")
            try await api.follow(bo, "ana")
            try await api.follow(di, "ana")
            let jpeg = try TestImages.encode(TestImages.cornered(width: 320, height: 240), as: ".jpg")
            let media = try await api.uploadPhoto(ana, jpeg)
            let post = try await api.post(ana, "Just for friends", media: [media.id], visibility: .followers)
            #expect(try await api.call(.post, "/api/v1/users/dia/block", token: ana).status == .ok)

            // Then a follower gets a signed URL that works
            let seen = try await api.call(.get, "/api/v1/posts/\(post.id)", token: bo).decode(Post.self)
            let signed = try #require(seen.media.first?.url)
            #expect(signed.contains("signature="))
            let fetched = try await api.fetch(signed)
            #expect(fetched.status == .ok)
            #expect(fetched.headers[.cacheControl]?.hasPrefix("private") == true)

            // And nobody else can reach it by any URL they can obtain
            let plain = MediaLinks.path(media.id, .large)
            for token in [cy, di, nil] {
                #expect(try await api.call(.get, "/api/v1/posts/\(post.id)", token: token).status == .notFound)
                #expect(try await api.fetch(plain, token: token).status == .notFound)
            }
            // Nor with a signature changed, or an expiry moved
            var tampered = URLComponents(string: signed)!
            tampered.queryItems = tampered.queryItems?.map {
                // One character changed (to another: a signature may start with "A" already)
                $0.name == "signature"
                    ? URLQueryItem(
                        name: "signature", value: ($0.value!.first == "A" ? "B" : "A") + $0.value!.dropFirst())
                    : $0
            }
            #expect(try await api.fetch(tampered.string!).status == .notFound)
            var moved = URLComponents(string: signed)!
            moved.queryItems = moved.queryItems?.map {
                $0.name == "expires" ? URLQueryItem(name: "expires", value: String(Int($0.value!)! + 3600)) : $0
            }
            #expect(try await api.fetch(moved.string!).status == .notFound)
            // And the signed URL expires
            api.clock.advance(by: 7 * 3600)
            #expect(try await api.fetch(signed).status == .notFound)

            // And once the post is deleted its photo is gone for everyone, its author too (tokens last 15
            // minutes: both sign in again after the seven hours)
            let bob = try await api.signin("bob").decode(TokenResponse.self).accessToken
            let author = try await api.signin("ana").decode(TokenResponse.self).accessToken
            let fresh = try await api.call(.get, "/api/v1/posts/\(post.id)", token: bob).decode(Post.self)
            let url = try #require(fresh.media.first?.url)
            #expect(try await api.fetch(url).status == .ok)
            #expect(try await api.call(.delete, "/api/v1/posts/\(post.id)", token: author).status == .noContent)
            #expect(try await api.fetch(url).status == .notFound)
        }
    }

    @Test(
        "a private account's photo reaches its followers only, even on a post marked public",
        arguments: StorageBackend.available, BlobBackend.available)
    func privateAccount(database: StorageBackend, blobs: BlobBackend) async throws {
        try await TestApp.run(database, configure: blobs.configure) { api in
            // Given Ana's private account, Bob her approved follower, and a post she marked public with a photo
            let ana = try await api.user("ana")
            let bob = try await api.user("bob")
            _ = try await api.call(.patch, "/api/v1/me", token: ana, body: UpdateAccountRequest(privacy: .private))
            try await api.follow(bob, "ana")
            #expect(try await api.call(.post, "/api/v1/me/follow-requests/bob/approve", token: ana).status.code < 300)
            let jpeg = try TestImages.encode(TestImages.cornered(width: 320, height: 240), as: ".jpg")
            let media = try await api.uploadPhoto(ana, jpeg)
            let post = try await api.post(ana, "Marked public", media: [media.id], visibility: .public)

            // Then her follower's URL works, and is not for shared caches
            let seen = try await api.call(.get, "/api/v1/posts/\(post.id)", token: bob).decode(Post.self)
            let fetched = try await api.fetch(try #require(seen.media.first?.url))
            #expect(fetched.status == .ok)
            #expect(fetched.headers[.cacheControl]?.hasPrefix("private") == true)
            // And signed out, neither the post nor the photo's plain address shows anything
            #expect(try await api.call(.get, "/api/v1/posts/\(post.id)").status == .notFound)
            #expect(try await api.fetch(MediaLinks.path(media.id, .large)).status == .notFound)
        }
    }

    @Test(
        "a public photo stops with its post, its author's suspension, or an edit that takes it out",
        arguments: StorageBackend.available, BlobBackend.available)
    func publicPhotoLifetime(database: StorageBackend, blobs: BlobBackend) async throws {
        try await TestApp.run(database, configure: blobs.configure) { api in
            let ana = try await api.user("ana")
            let jpeg = try TestImages.encode(TestImages.cornered(width: 320, height: 240), as: ".jpg")
            let first = try await api.uploadPhoto(ana, jpeg)
            let second = try await api.uploadPhoto(ana, jpeg)
            let post = try await api.post(ana, "Two views", media: [first.id, second.id])
            #expect(post.media.map(\.id) == [first.id, second.id])

            // An edit reorders, and one taken out stops working
            let edited = try await api.call(
                .patch, "/api/v1/posts/\(post.id)", token: ana, body: UpdatePostRequest(mediaIDs: [second.id]))
            #expect(edited.status == .ok)
            #expect(try edited.decode(Post.self).media.map(\.id) == [second.id])
            #expect(try await api.fetch(MediaLinks.path(first.id, .large)).status == .notFound)
            #expect(try await api.fetch(MediaLinks.path(second.id, .large)).status == .ok)

            // Alt text is fixed once posted
            let late = try await api.call(
                .patch, "/api/v1/media/\(second.id)", token: ana, body: UpdateMediaRequest(description: "late"))
            #expect(late.status == .conflict)

            // A suspended author's photos are not served
            try await api.suspend("ana")
            #expect(try await api.fetch(MediaLinks.path(second.id, .large)).status == .notFound)
        }
    }

    @Test(
        "an avatar upload becomes the face on the profile and every post; a replaced one stops",
        arguments: StorageBackend.available, BlobBackend.available)
    func avatars(database: StorageBackend, blobs: BlobBackend) async throws {
        try await TestApp.run(database, configure: blobs.configure) { api in
            let ana = try await api.user("ana")
            let jpeg = try TestImages.encode(TestImages.cornered(width: 600, height: 600), as: ".jpg")

            // A photo uploaded for posts is not an avatar
            let postPhoto = try await api.uploadPhoto(ana, jpeg)
            let wrong = try await api.call(
                .patch, "/api/v1/me", token: ana, body: UpdateAccountRequest(avatarMediaID: postPhoto.id))
            #expect(wrong.status == .unprocessableContent)
            #expect(try wrong.problem().errors?.map(\.field) == ["avatar_media_id"])

            // An avatar upload is
            let avatar = try await api.uploadPhoto(ana, jpeg, purpose: .avatar)
            let account = try await api.call(
                .patch, "/api/v1/me", token: ana, body: UpdateAccountRequest(avatarMediaID: avatar.id))
            #expect(account.status == .ok)
            let url = try #require(try account.decode(Account.self).avatarURL)
            #expect(url.hasSuffix(MediaLinks.path(avatar.id, .small)))
            let post = try await api.post(ana, "New face")
            #expect(post.author.avatarURL == url)
            #expect(try await api.fetch(url).status == .ok)

            // Replaced, the old one stops
            let next = try await api.uploadPhoto(ana, jpeg, purpose: .avatar)
            _ = try await api.call(.patch, "/api/v1/me", token: ana, body: UpdateAccountRequest(avatarMediaID: next.id))
            #expect(try await api.fetch(url).status == .notFound)
        }
    }

    @Test(
        "an upload nobody takes within a day, and a deleted post's photos, are swept from the store",
        arguments: StorageBackend.available, BlobBackend.available)
    func sweep(database: StorageBackend, blobs: BlobBackend) async throws {
        try await TestApp.run(
            database,
            configure: {
                blobs.configure(&$0)
                $0.media.sweepInterval = .milliseconds(20)
            }
        ) { api in
            var ana = try await api.user("ana")
            let jpeg = try TestImages.encode(TestImages.cornered(width: 320, height: 240), as: ".jpg")
            let unused = try await api.uploadPhoto(ana, jpeg)
            let posted = try await api.uploadPhoto(ana, jpeg)
            let kept = try await api.uploadPhoto(ana, jpeg)
            let post = try await api.post(ana, "Soon gone", media: [posted.id])
            _ = try await api.post(ana, "Staying", media: [kept.id])
            _ = try await api.call(.delete, "/api/v1/posts/\(post.id)", token: ana)
            api.clock.advance(by: 25 * 3600)
            ana = try await api.signin("ana").decode(TokenResponse.self).accessToken  // the old token expired

            for gone in [unused.id, posted.id] {
                let deadline = ContinuousClock.now + .seconds(30)
                while try await api.call(.get, "/api/v1/media/\(gone)", token: ana).status != .notFound,
                    ContinuousClock.now < deadline
                {
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(try await api.call(.get, "/api/v1/media/\(gone)", token: ana).status == .notFound)
            }
            try await blobs.inspect(api) { store in
                for gone in [unused.id, posted.id] {
                    let left = try await store.info(MediaRecord.key(gone, .large))
                    #expect(left == nil)
                }
                let still = try await store.info(MediaRecord.key(kept.id, .large))
                #expect(still != nil)
            }
            #expect(try await api.call(.get, "/api/v1/media/\(kept.id)", token: ana).status == .ok)
        }
    }
}
