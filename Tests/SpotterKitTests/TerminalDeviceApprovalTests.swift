import Foundation
import SpotterKit
import SpotterModels
import Testing

/// `spotter e2e register` on a second terminal of someone who has a device: it shows a code, the first
/// terminal approves it with `spotter e2e approve`, and the second reads the encrypted group.
extension TerminalClientTests {
    @Test("spotter e2e: a second terminal shows a code, the first approves it, and the second reads the group")
    func approveASecondTerminal() async throws {
        try await UploadQueueTests.withServer(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's terminal, her device, with an encrypted group and a sealed post in it
            let ana = try await Self.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }
            _ = try await ana.run("e2e", "register", "--name", "ana's desktop")
            _ = try await ana.run("e2e", "create", "--name", "The Kellers")
            _ = try await ana.run("e2e", "post", "The Kellers", "Hill repeats")

            // When she signs in on a second terminal, with its own data folder, and registers it
            let laptop = Spotter(home: ana.home.appendingPathComponent("laptop"))
            _ = try await laptop.run("login", "ana", "--server", url.absoluteString, "--password", Self.password)
            let asked = try await laptop.run("e2e", "register", "--name", "ana's laptop", "--no-wait")
            // Then it prints a code to enter on her other device, and how
            let code = try #require(Self.deviceCode(in: asked))
            #expect(asked.contains("spotter e2e approve \(code)"))
            #expect(asked.contains("The request runs out in "))
            // And it cannot read the group yet
            let locked = try await laptop.run("e2e", "feed", "The Kellers")
            #expect(
                locked.contains("this device has no keys for it yet") && !locked.contains("Hill repeats"), "\(locked)")

            // When the first terminal lists what waits, then the laptop is there, and the code is not shown
            let requests = try await ana.run("e2e", "requests")
            #expect(requests.hasPrefix("1 new device waits to be approved:\n  ana's laptop · "))
            #expect(!requests.contains(code) && requests.contains("safety number"))
            // When she enters a wrong code, then nothing is signed and the command fails
            let wrong = try await ana.fail("e2e", "approve", "0000-0000-0000")
            #expect(wrong.contains("nothing was signed"))
            #expect(try await ana.run("e2e", "devices").split(separator: "\n").count == 1)

            // When she enters the laptop's code
            let approved = try await ana.run("e2e", "approve", code.lowercased())
            // Then the laptop is her device, and she is told her safety number changed
            #expect(approved.hasPrefix("Approved ana's laptop: it is your device now"))
            #expect(approved.contains("Your safety number changed from "))
            #expect(try await ana.run("e2e", "requests") == "No new device waits to be approved.\n")

            // When the laptop registers again, then it is approved, and reads the group's post
            let registered = try await laptop.run("e2e", "register", "--name", "ana's laptop")
            #expect(registered.hasPrefix("Approved: this terminal is your device ana's laptop"))
            #expect(try await laptop.run("e2e", "feed", "The Kellers").contains("  Hill repeats\n"))
            let devices = try await laptop.run("e2e", "devices")
            #expect(devices.contains("ana's laptop (this terminal)") && devices.contains("ana's desktop"))
        }
    }

    /// The `XXXX-XXXX-XXXX` code in what `spotter e2e register` printed.
    static func deviceCode(in text: String) -> String? {
        let symbols = "[0-9A-HJKMNP-TV-Z]{4}"
        guard let range = text.range(of: "\(symbols)-\(symbols)-\(symbols)", options: .regularExpression) else {
            return nil
        }
        return String(text[range])
    }
}
