import ArgumentParser
import Foundation
import SpotterCore
import SpotterModels
import SpotterServer

/// `spotter admin grant|revoke <username>`: the only way to make an admin, so no web request ever can. And
/// `reset-password` and `set-email`: the way back into an account on a server that cannot mail.
struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Manage admins (who can feature accounts, remove posts and suspend accounts), and help people back into "
            + "their accounts.",
        subcommands: [Grant.self, Revoke.self, ResetPassword.self, SetEmail.self])

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

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a single-use link that lets someone choose a new password (it works for an hour).")
        @OptionGroup var options: ServerOptions
        @Argument(help: "The account's username.") var username: String

        func run() async throws {
            try await withAccountLinks(options) { links in
                let handed = try await links.passwordResetLink(for: username, by: .terminal)
                print(
                    """
                    Give @\(handed.account.username) this link. It lets them choose a new password once, within the \
                    hour (until \(handed.expiresAt.formatted(date: .omitted, time: .shortened))), and signs out \
                    all their devices:
                    \(handed.link)
                    """)
            }
        }
    }

    struct SetEmail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set the email of an account, at once.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "The account's username.") var username: String
        @Argument(help: "The new email.") var email: String

        func run() async throws {
            try await withAccountLinks(options) { links in
                let account = try await links.setEmail(of: username, to: email, by: .terminal)
                print(
                    "The email of @\(account.username) is now \(account.email ?? email); they are told in their inbox.")
            }
        }
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
        try await storage.withRunning(change)
    } catch SpotterError.notFound {
        throw ValidationError("No account named \(username).")
    }
}

/// Runs `body` with the server's account links as its configuration sets them up (`SPOTTER_PUBLIC_URL`, the
/// mail relay), on its database; a rule broken is said in a line and the command fails.
private func withAccountLinks(
    _ options: ServerOptions, _ body: @escaping @Sendable (AccountLinkService) async throws -> Void
) async throws {
    let configuration = try options.configuration()
    let logger = options.logger(configuration)
    let storage = try StorageFactory.open(configuration, logger: logger)
    let run: @Sendable () async throws -> Void = {
        try await storage.migrate()
        try await body(AccountLinkService.configured(configuration, storage: storage, logger: logger))
    }
    do {
        try await storage.withRunning(run)
    } catch let error as SpotterError {
        throw AdminRefusal(error)
    }
}

/// A refusal in the words a person reads: "This email is already taken by another account."
struct AdminRefusal: Error, CustomStringConvertible {
    let description: String

    init(_ error: SpotterError) {
        switch error {
        case .validation(let problems):
            // "The email is not an email address."
            description = problems.map { "The \($0.field.replacingOccurrences(of: "_", with: " ")) \($0.detail)." }
                .joined(separator: " ")
        case .notFound(let detail), .forbidden(let detail), .unauthorized(let detail), .unavailable(let detail):
            description = detail
        case .conflict(_, let detail), .rateLimited(_, let detail, _), .malformed(let detail, _):
            description = detail
        }
    }
}
