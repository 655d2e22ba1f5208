import Foundation
import SpotterModels

/// A way back into an account on a server that cannot mail (the default): the operator, or an admin, hands
/// the person a password-reset link, or sets the account's email.
///
/// The link is the mailed one's kind: random, stored only as its SHA-256, good for an hour and for one use,
/// and using it spends the account's other reset links. The person opens it as they would the mailed one.
extension AccountLinkService {
    /// A reset link to hand over, once: it is shown, never stored in the clear.
    public struct HandedLink: Sendable, Equatable {
        public let account: AccountRecord
        public let link: String
        public let expiresAt: Date
    }

    /// The account an admin looks up to help, by username.
    public func account(_ username: String, by authority: AdminAuthority) async throws -> AccountRecord {
        try authority.check()
        let name = username.trimmingCharacters(in: .whitespaces).drop(while: { $0 == "@" })
        guard TextInput.problem(in: String(name), as: .line) == nil,
            let account = try await storage.accounts.find(username: String(name))
        else { throw SpotterError.notFound("There is no account named \(name).") }
        return account
    }

    /// A new single-use link that lets the account choose a new password, as `requestPasswordReset` mails.
    public func passwordResetLink(for username: String, by authority: AdminAuthority) async throws -> HandedLink {
        let account = try await account(username, by: authority)
        let token = try await issue(.passwordReset, for: account.id, newEmail: nil, lifetime: lifetimes.passwordReset)
        return HandedLink(account: account, link: resetLink(token), expiresAt: clock.now + lifetimes.passwordReset)
    }

    /// Sets the account's email at once, under the rules a sign-up's email keeps, and tells the person: a
    /// security notification, and a mail to the old address when the server can mail.
    @discardableResult
    public func setEmail(
        of username: String, to email: String, by authority: AdminAuthority
    ) async throws -> AccountRecord {
        var account = try await account(username, by: authority)
        let email = email.trimmingCharacters(in: .whitespaces)
        if let problem = TextInput.problem(in: email, as: .line) ?? AccountRules.emailProblem(email) {
            throw SpotterError.validation([FieldError(field: "email", detail: problem)])
        }
        guard email.lowercased() != account.email?.lowercased() else { return account }
        let taken = SpotterError.conflict(field: "email", detail: "This email is already taken by another account.")
        if let other = try await storage.accounts.find(login: email), other.id != account.id { throw taken }
        // The address and the security alert about it are stored together, or neither.
        try await storage.write {
            do {
                try await storage.accounts.setEmail(account.id, email)
            } catch StorageError.duplicate {
                throw taken
            }
            await notifier?.notify(.emailChanged(user: account.id))
        }
        let old = account.email
        account.email = email
        if let old, let mailer {
            let notice = AccountMail(
                to: old, subject: "Your Spotter email has changed",
                text: """
                    An admin of this Spotter server changed the email of your account \(account.username) \
                    to \(email).

                    If you didn't ask for this, tell the server's admins at once.
                    """)
            Task { await mailer.send(notice) }
        }
        return account
    }
}
