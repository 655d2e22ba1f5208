import Foundation
import SpotterKit
import SpotterModels
import Testing

/// `spotter e2e …`, run as a process against a real server: the terminal is a device of encrypted groups.
extension TerminalClientTests {
    @Test("spotter e2e: devices, an encrypted group, a member added by sync, a sealed photo post read, safety numbers")
    func encryptedGroups() async throws {
        // A server with its blob store on a known port: photos are uploaded to it by presigned URL.
        try await UploadQueueTests.withServer(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana and Bea in their terminals, each registered as a device
            let ana = try await Self.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }
            try await SpotterClient(baseURL: url)
                .signUp(email: "bea@example.com", username: "bea", password: Self.password)
            let bea = Spotter(home: ana.home.appendingPathComponent("bea"))
            _ = try await bea.run("login", "bea", "--server", url.absoluteString, "--password", Self.password)
            #expect(
                try await ana.run("e2e", "register", "--name", "ana's laptop").hasPrefix(
                    "This terminal is your device ana's laptop"))
            #expect(try await bea.run("e2e", "register").hasPrefix("This terminal is your device terminal"))
            // Her keys are a file only she may read
            let keys = try FileManager.default.contentsOfDirectory(atPath: ana.home.appendingPathComponent("e2e").path)
            let file = ana.home.appendingPathComponent("e2e").appendingPathComponent(try #require(keys.first))
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)

            // When Ana makes an encrypted family group and invites Bea, who joins, and Ana's terminal syncs
            let created = try await ana.run("e2e", "create", "--name", "The Kellers")
            #expect(created.hasPrefix("Created The Kellers (encrypted): "))
            let familyID = String(created.dropFirst("Created The Kellers (encrypted): ".count).dropLast())
            _ = try await ana.run("groups", "invite", "The Kellers", "--username", "bea")
            #expect(try await bea.run("groups", "join", familyID).contains("You are a member of The Kellers"))
            #expect(try await ana.run("e2e", "sync", "The Kellers") == "Added 1 member.\n")
            #expect(try await ana.run("e2e", "sync", "The Kellers") == "Up to date.\n")

            // Then Bea posts a sealed photo, and Ana's terminal opens it; the server holds no caption
            let photo = ana.home.appendingPathComponent("run.jpg")
            try UploadQueueTests.jpeg().write(to: photo)
            let sent = try await bea.run("e2e", "post", "The Kellers", "Sunday long run", "--photo", photo.path)
            #expect(sent.hasPrefix("sent: sealed post with 1 photo as "))
            let feed = try await ana.run("e2e", "feed", "The Kellers")
            #expect(feed.contains("@bea · ") && feed.contains("  Sunday long run\n  1 photo\n"))
            // The group's plain feed opens it too, on this terminal that holds the keys
            let plain = try await ana.run("groups", "feed", "The Kellers")
            #expect(plain.contains("  Sunday long run\n  1 photo\n"))
            // A plain post to it is refused, saying why
            let refused = try await ana.fail("groups", "post", "The Kellers", "in the clear")
            #expect(refused.contains("sealed"))

            // Each sees the other's safety number, the same on both sides
            let anaSees = try await ana.run("e2e", "safety", "The Kellers")
            let beaSees = try await bea.run("e2e", "safety", "The Kellers")
            #expect(anaSees == beaSees && anaSees.contains("@ana\t") && anaSees.contains("@bea\t"))

            // A recovery key is 24 words, and then one more device of Ana's
            let recovery = try await ana.run("e2e", "recovery-key")
            let words = recovery.split(separator: "\n").filter { $0.contains("\t") }
                .flatMap { $0.split(separator: "\t").dropFirst() }.flatMap { $0.split(separator: " ") }
            #expect(words.count == 24)
            // It says first that her safety number changes, and after, from which to which
            #expect(recovery.hasPrefix("A recovery key counts as one of your devices. Your safety number will change"))
            #expect(recovery.contains("Your safety number changed from "))
            let devices = try await ana.run("e2e", "devices")
            #expect(devices.contains("ana's laptop (this terminal)") && devices.contains("(recovery key)"))
        }
    }
}
