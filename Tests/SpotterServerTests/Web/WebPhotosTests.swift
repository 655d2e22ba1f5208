import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("Photos in the web app")
struct WebPhotosTests {
    static func photo(width: Int = 640, height: Int = 480) throws -> Data {
        try TestImages.encode(TestImages.cornered(width: width, height: height), as: ".jpg[Q=90]")
    }

    @Test(
        "the upload route wants a session and the page's token, and names the file it refuses",
        arguments: StorageBackend.available)
    func uploadRefusals(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: BlobBackend.local.configure) { api in
            let jpeg = try Self.photo()
            let file = WebFile(name: "file", filename: "run.jpg", contentType: "image/jpeg", data: jpeg)

            // Given a signed-out browser with a valid sign-in page token
            var visitor = WebBrowser(api)
            try await visitor.get("/signin")
            // When it uploads with the token, then Then it is told to sign in (401, JSON), and nothing is stored
            let signedOut = try await visitor.postMultipart("/uploads", files: [file], csrfHeader: true)
            #expect(signedOut.status == .unauthorized)
            #expect(signedOut.headers[.contentType]?.contains("json") == true)

            // Given Ana, signed in
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            // When her upload comes without the page's token (a forged cross-site form), Then it is refused
            let forged = try await ana.postMultipart("/uploads", files: [file], csrfHeader: false)
            #expect(forged.status == .forbidden)

            // When she uploads a text file, or nothing, Then the refusal names the file field
            let text = WebFile(name: "file", filename: "notes.txt", contentType: "text/plain", data: Data("hi".utf8))
            let wrongType = try await ana.postMultipart("/uploads", files: [text], csrfHeader: true)
            #expect(wrongType.status == .unprocessableContent)
            #expect(try Self.fields(wrongType) == ["file"])
            let nothing = try await ana.postMultipart("/uploads", fields: [("purpose", "post")], csrfHeader: true)
            #expect(nothing.status == .unprocessableContent)
            #expect(try Self.fields(nothing) == ["file"])
            // And bytes that are no image under an image type are refused once processed, with a reason
            let fake = WebFile(name: "file", filename: "fake.jpg", contentType: "image/jpeg", data: Data("no".utf8))
            let accepted = try await ana.postMultipart("/uploads", files: [fake], csrfHeader: true)
            #expect(accepted.status == .accepted)
            let failed = try await ana.settled(try accepted.decode(Media.self).id)
            #expect(failed.status == .failed && failed.reason != nil)

            // When she uploads a photo with the token in the form (as the page's form would send it)
            let uploaded = try await ana.postMultipart("/uploads", files: [file], csrfHeader: false, csrfField: true)
            // Then it is accepted and becomes ready, with its renditions
            #expect(uploaded.status == .accepted)
            let ready = try await ana.settled(try uploaded.decode(Media.self).id)
            #expect(ready.status == .ready && ready.previewURL != nil)
            // And nobody else can ask about it
            var bob = WebBrowser(api)
            try await bob.signUp("bob")
            #expect(try await bob.get("/uploads/\(ready.id)").status == .notFound)
        }
    }

    @Test(
        "the composer posts photos with their alt text, and cards show them responsive, sized and described",
        arguments: StorageBackend.available)
    func composerPostsPhotos(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: BlobBackend.local.configure) { api in
            // Given Ana, who chose two photos in the composer (uploaded by the picker as she chose them)
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let compose = try await ana.get("/compose")
            #expect(compose.text.contains(#"id="note-photo" name="photo" type="file""#))
            #expect(compose.text.contains("Describe the photo for people who can't see it"))
            var ids: [MediaID] = []
            for size in [(640, 480), (300, 500)] {
                let file = WebFile(
                    name: "file", filename: "p.jpg", contentType: "image/jpeg",
                    data: try Self.photo(width: size.0, height: size.1))
                let uploaded = try await ana.postMultipart("/uploads", files: [file], csrfHeader: true)
                ids.append(try await ana.settled(try uploaded.decode(Media.self).id).id)
            }

            // When she posts a note with them, describing the first
            let posted = try await ana.post(
                "/compose",
                [
                    ("kind", "note"), ("text", "Track day"), ("media_id", ids[0].description),
                    ("media_alt", "Sunrise over the track"), ("media_id", ids[1].description), ("media_alt", ""),
                    ("visibility", "public"),
                ])

            // Then the post carries both photos in order, the first with its alt text
            #expect(posted.status == .seeOther)
            let post = try #require(
                try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.first)
            #expect(post.media.map(\.id) == ids)
            #expect(post.media.map(\.description) == ["Sunrise over the track", nil])
            // And her feed shows them as a grid of lazy, sized, responsive images with their placeholders
            let feed = try await ana.get("/feed/following").text
            let first = post.media[0]
            #expect(feed.contains(#"<div class="photos photos-grid photos-2">"#))
            // (A signed URL's `&` is written `&amp;` in the page.)
            func html(_ url: String) -> String { url.replacingOccurrences(of: "&", with: "&amp;") }
            #expect(feed.contains(#"srcset="\#(html(first.previewURL)) 400w, \#(html(first.url)) 640w""#))
            #expect(feed.contains(#"width="640" height="480" loading="lazy""#))
            #expect(feed.contains(#"alt="Sunrise over the track" data-blurhash="\#(first.blurhash)""#))
            // And the undescribed photo has an empty alt, its link named by its place
            #expect(feed.contains(#"aria-label="Photo 2 of 2""#))
            #expect(feed.contains(#"alt="" data-blurhash="\#(post.media[1].blurhash)""#))
            // And the photos are served
            #expect(try await api.fetch(first.previewURL).status == .ok)

            // When she edits the post and puts the second photo first
            let editPage = try await ana.get("/posts/\(post.id)/edit")
            #expect(editPage.text.contains(#"name="media_remove" value="\#(ids[1])""#))
            let reordered = try await ana.post(
                "/posts/\(post.id)/edit",
                [
                    ("text", "Track day"), ("visibility", "public"), ("media_photo", ids[0].description),
                    ("media_position", "2"), ("media_photo", ids[1].description), ("media_position", "1"),
                ])
            #expect(reordered.status == .seeOther)
            let swapped = try await api.call(.get, "/api/v1/posts/\(post.id)").decode(Post.self)
            #expect(swapped.media.map(\.id) == [ids[1], ids[0]])

            // When she ticks Remove on the photo she had second
            try await ana.get("/posts/\(post.id)/edit")
            let edited = try await ana.post(
                "/posts/\(post.id)/edit",
                [("text", "Track day"), ("visibility", "public"), ("media_remove", ids[1].description)])
            // Then the post keeps only the first
            #expect(edited.status == .seeOther)
            let after = try await api.call(.get, "/api/v1/posts/\(post.id)").decode(Post.self)
            #expect(after.media.map(\.id) == [ids[0]])
        }
    }

    @Test(
        "without script the note form uploads its photo, waits for it and posts it with its alt text",
        arguments: StorageBackend.available)
    func formWithoutScript(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: BlobBackend.local.configure) { api in
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            try await ana.get("/compose")
            // When the form goes as a plain multipart post with a photo and its description
            let posted = try await ana.postMultipart(
                "/compose",
                fields: [("kind", "note"), ("text", "Rest day walk"), ("photo_alt", "A quiet trail")],
                files: [
                    WebFile(name: "photo", filename: "walk.jpg", contentType: "image/jpeg", data: try Self.photo())
                ],
                csrfHeader: false, csrfField: true)
            // Then it is posted with the photo, described
            #expect(posted.status == .seeOther)
            let post = try #require(
                try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.first)
            #expect(post.text == "Rest day walk")
            #expect(post.media.count == 1 && post.media.first?.description == "A quiet trail")

            // When a file that is not a photo goes with another note
            let refused = try await ana.postMultipart(
                "/compose", fields: [("kind", "note"), ("text", "Second try"), ("photo_alt", "Me")],
                files: [WebFile(name: "photo", filename: "a.txt", contentType: "text/plain", data: Data("x".utf8))],
                csrfHeader: false, csrfField: true)
            // Then the form comes back with the text kept and the photo field marked
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(">Second try</textarea>"))
            #expect(refused.text.contains(#"aria-invalid="true" aria-describedby="note-photo-error""#))
            #expect(refused.text.contains(##"<a href="#note-photo">"##))
            #expect(try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.count == 1)
        }
    }

    @Test("the workout builder posts a workout with its photo", arguments: StorageBackend.available)
    func workoutWithPhoto(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: BlobBackend.local.configure) { api in
            // Given Ana's photo, uploaded by the builder's picker
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let compose = try await ana.get("/compose")
            #expect(compose.text.contains(#"id="workout-photo" name="photo" type="file""#))
            let file = WebFile(name: "file", filename: "s.jpg", contentType: "image/jpeg", data: try Self.photo())
            let photo = try await ana.settled(
                try await ana.postMultipart("/uploads", files: [file], csrfHeader: true).decode(Media.self).id)

            // When she logs a workout with it
            let posted = try await ana.post(
                "/compose",
                [
                    ("kind", "workout"), ("title", "Heavy Monday"), ("type", "strength"),
                    ("exercise_name", "Back Squat"), ("set_exercise", "0"), ("set_weight", "100"), ("set_reps", "5"),
                    ("media_id", photo.id.description), ("media_alt", "The squat rack"), ("visibility", "public"),
                ])

            // Then the workout carries the described photo
            #expect(posted.status == .seeOther)
            let post = try #require(
                try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.first)
            #expect(post.workout?.title == "Heavy Monday")
            #expect(post.media.map(\.id) == [photo.id] && post.media.first?.description == "The squat rack")

            // And a refused workout comes back with the chosen photo and its alt text kept for the next try
            let refused = try await ana.post(
                "/compose",
                [
                    ("kind", "workout"), ("title", ""), ("exercise_name", "Back Squat"), ("set_exercise", "0"),
                    ("set_weight", "100"), ("set_reps", ""), ("media_id", photo.id.description), ("media_alt", "Rack"),
                ])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"<input type="hidden" name="media_id" value="\#(photo.id)">"#))
            #expect(refused.text.contains(#"name="media_alt" rows="2" maxlength="1500">Rack</textarea>"#))
        }
    }

    @Test("someone else's photo can't be posted from the web form", arguments: StorageBackend.available)
    func someoneElsesPhoto(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: BlobBackend.local.configure) { api in
            // Given Bob's ready photo
            var bob = WebBrowser(api)
            try await bob.signUp("bob")
            let file = WebFile(name: "file", filename: "b.jpg", contentType: "image/jpeg", data: try Self.photo())
            let bobs = try await bob.settled(
                try await bob.postMultipart("/uploads", files: [file], csrfHeader: true).decode(Media.self).id)
            #expect(bobs.status == .ready)

            // When Ana posts a note naming it
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            try await ana.get("/compose")
            let refused = try await ana.post(
                "/compose",
                [("kind", "note"), ("text", "Not mine"), ("media_id", bobs.id.description), ("media_alt", "Stolen")])

            // Then it is refused with the photos field marked, nothing is posted, and Bob's photo is unchanged
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"aria-describedby="note-photo-error""#))
            #expect(try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.isEmpty)
            #expect(try await bob.settled(bobs.id).description == nil)
        }
    }

    @Test(
        "an avatar set in settings shows in the top bar and on posts; removed, the initials return",
        arguments: StorageBackend.available)
    func avatar(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: BlobBackend.local.configure) { api in
            // Given Ana with a post and no avatar: her initials show
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            try await ana.get("/compose")
            #expect(try await ana.post("/posts", [("kind", "note"), ("text", "Hello")]).status == .seeOther)
            let settings = try await ana.get("/settings")
            #expect(settings.text.contains(#"id="avatar-photo" name="photo" type="file""#))

            // When she saves a photo of her (the form without script)
            let saved = try await ana.postMultipart(
                "/settings/avatar",
                files: [WebFile(name: "photo", filename: "me.jpg", contentType: "image/jpeg", data: try Self.photo())],
                csrfHeader: false, csrfField: true)
            #expect(saved.status == .seeOther)

            // Then the top bar and her post show it, and it is served to anyone
            let feed = try await ana.get("/feed/following").text
            let me = try await api.call(.get, "/api/v1/users/ana").decode(Profile.self)
            let url = try #require(me.avatarURL)
            #expect(feed.contains(#"<img class="avatar tiny" src="\#(url)""#))
            #expect(feed.contains(#"<img class="avatar" src="\#(url)""#))
            #expect(try await api.fetch(url).status == .ok)

            // When she removes it, Then her initials are back
            try await ana.get("/settings")
            #expect(try await ana.post("/settings/avatar/remove").status == .seeOther)
            let after = try await ana.get("/feed/following").text
            #expect(!after.contains(#"<img class="avatar"#))
            #expect(after.contains(#"<span class="avatar" aria-hidden="true">A</span>"#))
        }
    }

    private static func fields(_ response: TestResponse) throws -> [String] {
        struct Problem: Decodable {
            struct Field: Decodable { let field: String }
            let errors: [Field]?
        }
        return try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body)).errors?.map(\.field) ?? []
    }
}

/// A file part of a multipart form.
struct WebFile {
    var name: String
    var filename: String
    var contentType: String
    var data: Data
}

extension WebBrowser {
    /// Posts `multipart/form-data`, as a browser's photo form or the picker's `FormData` does; the page's token
    /// goes in the `X-CSRF-Token` header (the picker) and/or the `_csrf` field (a plain form).
    mutating func postMultipart(
        _ path: String, fields: [(String, String)] = [], files: [WebFile] = [], csrfHeader: Bool,
        csrfField: Bool = false
    ) async throws -> TestResponse {
        let boundary = "----spotter\(UUID().uuidString)"
        var body = Data()
        func part(_ disposition: String, _ type: String?, _ data: Data) {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; \(disposition)\r\n".utf8))
            if let type { body.append(Data("Content-Type: \(type)\r\n".utf8)) }
            body.append(Data("\r\n".utf8))
            body.append(data)
            body.append(Data("\r\n".utf8))
        }
        if csrfField { part(#"name="_csrf""#, nil, Data(csrf.utf8)) }
        for (name, value) in fields { part("name=\"\(name)\"", nil, Data(value.utf8)) }
        for file in files { part("name=\"\(file.name)\"; filename=\"\(file.filename)\"", file.contentType, file.data) }
        body.append(Data("--\(boundary)--\r\n".utf8))
        var headers: HTTPFields = [.contentType: "multipart/form-data; boundary=\(boundary)"]
        if csrfHeader { headers[HTTPField.Name("X-CSRF-Token")!] = csrf }
        let response = try await send(.post, path, body: ByteBuffer(data: body), headers: headers)
        if response.headers[.contentType]?.hasPrefix("text/html") == true { lastPage = response.text }
        return response
    }

    /// The upload once processed, as the picker waits for it.
    mutating func settled(_ id: MediaID) async throws -> Media {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let media = try await get("/uploads/\(id)").decode(Media.self)
            if media.status == .ready || media.status == .failed || ContinuousClock.now >= deadline { return media }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
