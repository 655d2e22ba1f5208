import Foundation
import SpotterKit
import SpotterModels
import Testing

/// `spotter post … --photo` and `spotter avatar set`, run as a process against a real server.
extension TerminalClientTests {
    @Test("a post with a photo and its alt text is posted once processed; a file that is no photo is named and refused")
    func photoPost() async throws {
        try await UploadQueueTests.withServer { url, _ in
            // Given Ana signed in, a real JPEG and a ".jpg" that is text
            let ana = try await Self.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }
            let photo = ana.home.appendingPathComponent("run.jpg")
            try UploadQueueTests.jpeg().write(to: photo)
            let fake = ana.home.appendingPathComponent("notes.jpg")
            try Data("my training notes".utf8).write(to: fake)

            // When she posts with the photo and alt text
            let sent = try await ana.run("post", "Track day", "--photo", photo.path, "--alt", "Lane 4 at sunset")

            // Then it says so, and the post carries the processed photo with its alt text
            #expect(sent.contains("photo 1: uploading…"))
            #expect(sent.contains("sent: post \"Track day\" with 1 photo as "))
            let client = SpotterClient(baseURL: url, tokens: ana.tokens)
            let posts = try await client.feed(.user("ana")).items
            #expect(posts.map(\.text) == ["Track day"])
            #expect(posts.first?.media.map(\.description) == ["Lane 4 at sunset"])

            // When she posts the text file as a photo
            let refused = try await ana.fail("post", "Notes", "--photo", fake.path)

            // Then the command fails with the server's reason, and nothing is posted or left waiting
            #expect(refused.contains("refused: post \"Notes\" with 1 photo: Photo 1 was refused: "))
            #expect(try await client.feed(.user("ana")).items.count == 1)
            #expect(!(try await ana.run("outbox")).contains("Notes"))

            // When she sets her avatar from the photo
            #expect(try await ana.run("avatar", "set", photo.path) == "Avatar set for @ana.\n")

            // Then her account shows it
            let avatar = try #require(try await client.me().avatarURL)
            #expect(client.url(avatar)?.absoluteString.hasPrefix(url.absoluteString + "/media/") == true)

            // When she gives her club a photo, and then changes her own avatar
            _ = try await ana.run("groups", "create", "--name", "Riverside Runners", "--access", "open")
            #expect(
                try await ana.run("groups", "photo", "Riverside Runners", photo.path)
                    == "Photo set for Riverside Runners.\n")
            #expect(try await ana.run("avatar", "set", photo.path) == "Avatar set for @ana.\n")

            // Then the club's photo is still served: the two are separate avatars
            let club = try #require(try await client.myGroups().items.first)
            let clubPhoto = try #require(club.avatarURL.flatMap(client.url))
            #expect(try await URLSessionTransport().send(HTTPRequestData(method: "GET", url: clubPhoto)).status == 200)
            #expect(
                try await ana.run("groups", "photo", "Riverside Runners", "--remove")
                    == "Riverside Runners has no photo now.\n")
            #expect(try await client.group(club.id).avatarURL == nil)
        }
    }

    @Test("a post with a photo made offline waits, and spotter outbox posts it once the server is reachable")
    func offlinePhotoPost() async throws {
        try await UploadQueueTests.withServer { url, _ in
            // Given Ana signed in, and a photo
            let ana = try await Self.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }
            let photo = ana.home.appendingPathComponent("run.jpg")
            try UploadQueueTests.jpeg().write(to: photo)

            // When she posts it with no server to reach
            let offline = try await ana.run(
                "post", "Offline run", "--photo", photo.path, "--server", "http://127.0.0.1:9")

            // Then it waits, and the outbox sends it when the server is reachable
            #expect(offline.contains("waiting: post \"Offline run\" with 1 photo — cannot reach http://127.0.0.1:9"))
            #expect(try await ana.run("outbox").contains("sent: post \"Offline run\" with 1 photo as "))
            let posts = try await SpotterClient(baseURL: url, tokens: ana.tokens).feed(.user("ana")).items
            #expect(posts.map(\.text) == ["Offline run"])
            #expect(posts.first?.media.count == 1)
            #expect(!(try await ana.run("outbox")).contains("Offline run"))
        }
    }

    @Test("more than four photos, or a file of another kind, is refused before anything is sent")
    func photoOptions() async throws {
        let ana = Spotter(home: FileManager.default.temporaryDirectory.appendingPathComponent("spotter-cli-\(UUID())"))
        let five = Array(repeating: ["--photo", "a.jpg"], count: 5).flatMap { $0 }
        let tooMany = try await ana.execute(["post", "Five"] + five)
        #expect(tooMany.status != 0)
        #expect(tooMany.text.contains("A post takes at most 4 photos."))
        let gif = try await ana.execute(["post", "Gif", "--photo", "a.gif"])
        #expect(gif.status != 0)
        #expect(gif.text.contains("a.gif: a photo must be a .jpg, .jpeg, .png, .webp or .heic file."))
    }
}
