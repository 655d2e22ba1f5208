import Foundation
import Hummingbird
import HummingbirdTesting
import SpotterCore
import SpotterKit
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// `spotter admin reset-password` and `set-email`: how the operator gives someone their account back on a
/// server that cannot mail (the default), run as a process on the database of a server running beside it.
extension TerminalClientTests {
    @Test(
        "`spotter admin reset-password` prints a link that sets a new password once, and not after its hour",
        arguments: StorageBackend.available)
    func adminResetPassword(backend: StorageBackend) async throws {
        try await Self.withOperator(backend) { url, clock, _, admin in
            // Given Ana, who forgot her password, on a server that cannot mail
            try await SpotterClient(baseURL: url)
                .signUp(email: "ana@example.com", username: "ana", password: Self.password)

            // When the operator makes her a link
            let printed = try await admin.run("admin", "reset-password", "ana")

            // Then it is a link to this server's reset page that says it works once, within the hour
            let link = try Self.link(in: printed)
            #expect(link.hasPrefix("\(url.absoluteString)/reset-password?token="), "\(printed)")
            #expect(printed.contains("choose a new password once, within the hour"), "\(printed)")

            // When Ana opens it and chooses a new password
            try await SpotterClient(baseURL: url).resetPassword(token: Self.token(in: link), newPassword: "new one 1")

            // Then the new password signs her in, and the link does not work again
            _ = try await SpotterClient(baseURL: url).signIn(login: "ana", password: "new one 1")
            let reused = await #expect(throws: SpotterClientError.self) {
                try await SpotterClient(baseURL: url).resetPassword(
                    token: Self.token(in: link), newPassword: "new one 2")
            }
            #expect(reused?.status == 422)

            // When the operator makes another, and it is opened 59 minutes later (the command's clock is the
            // system's: the server's is moved to 59 minutes after the command started, however long it took)
            let asked = Date()
            let second = try Self.link(in: try await admin.run("admin", "reset-password", "@ana"))
            clock.advance(by: asked.addingTimeInterval(59 * 60).timeIntervalSince(clock.now))

            // Then it still works, as a mailed link does within its hour
            try await SpotterClient(baseURL: url).resetPassword(token: Self.token(in: second), newPassword: "new one 3")

            // When a third is opened an hour and a minute after it was made
            let third = try Self.link(in: try await admin.run("admin", "reset-password", "ana"))
            clock.advance(by: Date().addingTimeInterval(61 * 60).timeIntervalSince(clock.now))

            // Then it has expired, and her password stays
            let expired = await #expect(throws: SpotterClientError.self) {
                try await SpotterClient(baseURL: url).resetPassword(
                    token: Self.token(in: third), newPassword: "new one 4")
            }
            #expect(expired?.status == 422)
            _ = try await SpotterClient(baseURL: url).signIn(login: "ana", password: "new one 3")

            // A name that is nobody's is said so, and the command fails
            #expect(
                try await admin.fail("admin", "reset-password", "nobody").contains("There is no account named nobody."))
        }
    }

    @Test(
        "`spotter admin set-email` sets a valid address at once and tells the person; a taken or bad one is refused",
        arguments: StorageBackend.available)
    func adminSetEmail(backend: StorageBackend) async throws {
        try await Self.withOperator(backend) { url, clock, storage, admin in
            // Given Ana, who lost her mailbox, and Bea
            try await SpotterClient(baseURL: url)
                .signUp(email: "ana@example.com", username: "ana", password: Self.password)
            try await SpotterClient(baseURL: url)
                .signUp(email: "bea@example.com", username: "bea", password: Self.password)

            // When the operator sets Ana's email
            let said = try await admin.run("admin", "set-email", "ana", "ana@new.example")

            // Then it says so, the new address signs her in, and her inbox has a security alert about it
            #expect(said == "The email of @ana is now ana@new.example; they are told in their inbox.\n")
            let ana = SpotterClient(baseURL: url)
            #expect(try await ana.signIn(login: "ana@new.example", password: Self.password).email == "ana@new.example")
            let account = try #require(try await storage.accounts.find(username: "ana"))
            let inbox = try await NotificationService(storage: storage, clock: clock).inbox(
                account, page: PageRequest())
            #expect(inbox.items.contains { $0.type == .securityEmailChanged })

            // When the address is Bea's, or not an address, or the person is nobody
            let taken = try await admin.fail("admin", "set-email", "ana", "BEA@example.com")
            let bad = try await admin.fail("admin", "set-email", "ana", "ana at home")
            let nobody = try await admin.fail("admin", "set-email", "nobody", "x@example.com")

            // Then each is refused in words, and Ana's email stays
            #expect(taken.contains("This email is already taken by another account."), "\(taken)")
            #expect(bad.contains("The email is not an email address."), "\(bad)")
            #expect(nobody.contains("There is no account named nobody."), "\(nobody)")
            #expect(try await storage.accounts.find(username: "ana")?.email == "ana@new.example")
        }
    }

    /// A server in this process on a database `spotter admin` opens as well (a data folder, or a PostgreSQL
    /// database of its own), with a clock the test moves; `admin` runs the executable with the server's settings.
    static func withOperator(
        _ backend: StorageBackend,
        _ body: @Sendable (URL, ManualClock, any SpotterStorage, Spotter) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-operator-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        func serve(_ environment: [String: String]) async throws {
            var configuration = AppConfiguration()
            configuration.bcryptCost = 4
            configuration.runsMaintenance = false
            configuration.port = 0
            configuration.dataDirectory = folder.appendingPathComponent("data").path
            configuration.databaseURL = environment["SPOTTER_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
            let dataDirectory = configuration.dataDirectory
            let storage = try StorageFactory.open(configuration, logger: StorageBackend.logger)
            let clock = ManualClock(Date())
            let app = try await buildApplication(
                configuration: configuration, storage: storage, clock: clock, logger: StorageBackend.logger)
            try await app.test(.live) { client in
                guard let port = client.port else { throw LiveServer.NoPort() }
                let url = URL(string: "http://127.0.0.1:\(port)")!
                let admin = Spotter(
                    home: folder.appendingPathComponent("home"),
                    environment: environment.merging(
                        [
                            "SPOTTER_DATA_DIR": dataDirectory, "SPOTTER_PUBLIC_URL": url.absoluteString,
                            "SPOTTER_LOG_LEVEL": "error",
                        ]
                    ) { $1 })
                try await body(url, clock, storage, admin)
            }
        }
        switch backend {
        case .sqlite: try await serve(["SPOTTER_DATABASE_URL": ""])
        case .postgres: try await StorageBackend.withFreshDatabase { try await serve(["SPOTTER_DATABASE_URL": $0]) }
        }
    }

    static func link(in printed: String) throws -> String {
        try #require(printed.split(separator: "\n").first { $0.hasPrefix("http") }.map(String.init), "\(printed)")
    }

    static func token(in link: String) -> String {
        link.components(separatedBy: "token=").last ?? ""
    }
}
