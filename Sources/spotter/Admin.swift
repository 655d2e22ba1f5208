import ArgumentParser
import SpotterCore
import SpotterModels
import SpotterPostgres
import SpotterServer

/// `spotter admin grant|revoke <username>`: the only way to make an admin, so no web request ever can.
struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage admins (who can feature accounts, remove posts and suspend accounts).",
        subcommands: [Grant.self, Revoke.self])

    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an account an admin.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "The account's username.") var username: String

        func run() async throws { try await setRole(.admin, username: username, options: options) }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an admin a member again.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "The account's username.") var username: String

        func run() async throws { try await setRole(.member, username: username, options: options) }
    }
}

private func setRole(_ role: Role, username: String, options: ServerOptions) async throws {
    let configuration = try options.configuration()
    let logger = options.logger(configuration)
    let storage = try StorageFactory.open(configuration, logger: logger)
    let change: @Sendable () async throws -> Void = {
        try await storage.migrate()
        let account = try await AdminService(storage: storage, clock: SystemClock()).setRole(username, role)
        print("\(account.username) is now \(role == .admin ? "an admin" : "a member").")
    }
    do {
        if let postgres = storage as? PostgresStorage {
            try await postgres.withRunning(change)
        } else {
            try await change()
        }
    } catch SpotterError.notFound {
        throw ValidationError("No account named \(username).")
    }
}
