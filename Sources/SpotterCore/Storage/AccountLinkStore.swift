import Foundation
import SpotterModels

/// The single-use links mailed to a person: a password reset, or the confirmation of a new email address.
///
/// Like bearer tokens, only the SHA-256 of a link's token is stored, so a leaked database opens no account.
public protocol AccountLinkStore: Sendable {
    func insert(_ link: AccountLinkRecord) async throws
    /// Uses the link with this hash and purpose, atomically: of two concurrent calls at most one gets it.
    /// Returns `nil` when there is none, or it was used or expired by `date`. Using one link spends every
    /// other unused link of the same purpose for the same account, so an older mail can't be used after it.
    func consume(hash: String, purpose: AccountLinkPurpose, at date: Date) async throws -> AccountLinkRecord?
    /// Deletes links that expired before `date`; returns how many.
    @discardableResult
    func deleteExpired(before date: Date) async throws -> Int
}

/// What a mailed link does when it is opened.
public enum AccountLinkPurpose: String, Sendable, CaseIterable {
    case passwordReset = "password_reset"
    case emailChange = "email_change"
}

/// A stored link: whose, what for, until when, and (for an email change) the address it confirms.
public struct AccountLinkRecord: Sendable, Equatable {
    public var hash: String
    public var userID: UserID
    public var purpose: AccountLinkPurpose
    /// The address an `emailChange` link confirms; `nil` for a reset.
    public var newEmail: String?
    public var createdAt: Date
    public var expiresAt: Date
    public var usedAt: Date?

    public init(
        hash: String, userID: UserID, purpose: AccountLinkPurpose, newEmail: String?, createdAt: Date, expiresAt: Date,
        usedAt: Date? = nil
    ) {
        self.hash = hash
        self.userID = userID
        self.purpose = purpose
        self.newEmail = newEmail
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}
