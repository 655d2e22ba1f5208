import Foundation
import SpotterModels

/// What admins may do: suspend and reinstate accounts, feature accounts in the Featured feed, and (through
/// `PostService.delete`) remove any post. The role itself is granted from the command line
/// (`spotter admin grant <username>`), so no web request can make an admin.
public struct AdminService: Sendable {
    let storage: any SpotterStorage
    let clock: any WallClock
    /// Hears of suspensions, so the suspended person's sockets close on every node.
    let events: (any EventBus)?

    public init(storage: any SpotterStorage, clock: any WallClock, events: (any EventBus)? = nil) {
        self.storage = storage
        self.clock = clock
        self.events = events
    }

    public func setSuspended(_ username: String, suspended: Bool, by admin: AccountRecord) async throws {
        let target = try await account(username, by: admin)
        guard target.id != admin.id else { throw SpotterError.invalid("username", "You can't suspend yourself.") }
        try await storage.accounts.setSuspended(target.id, at: suspended ? clock.now : nil)
        // A suspended account can't sign in (`AccountService.refuseSuspended`); its open sockets end too.
        if suspended { await events?.publish(.loginsRevoked(target.id, .all)) }
    }

    public func setFeatured(_ username: String, featured: Bool, by admin: AccountRecord) async throws {
        let target = try await account(username, by: admin)
        try await storage.accounts.setFeatured(target.id, at: featured ? clock.now : nil)
    }

    /// Grants or revokes the admin role (for the command line).
    public func setRole(_ username: String, _ role: Role) async throws -> AccountRecord {
        guard var account = try await storage.accounts.find(username: username) else {
            throw SpotterError.notFound("No such user.")
        }
        try await storage.accounts.setRole(account.id, role)
        account.role = role
        return account
    }

    private func account(_ username: String, by admin: AccountRecord) async throws -> AccountRecord {
        guard admin.role == .admin else { throw SpotterError.forbidden("Only admins can do this.") }
        guard let target = try await storage.accounts.find(username: username) else {
            throw SpotterError.notFound("No such user.")
        }
        return target
    }
}
