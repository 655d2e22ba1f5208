import Foundation
import SpotterModels

/// Full-text and name search, each adapter using what its database does well (SQLite FTS5, PostgreSQL
/// pg_trgm and text search). Results hold only what `viewer` may see.
public protocol SearchStore: Sendable {
    /// Accounts whose username or display name resembles `query` (substring or typo), best candidates
    /// first, leaving out suspended accounts and anyone blocked either way with the viewer.
    func users(matching query: String, viewer: UserID?, limit: Int) async throws -> [AccountRecord]
    /// Accounts whose bio holds every word of `query` (each word as a prefix), with the same people left out
    /// as `users(matching:)`; newest accounts first.
    func users(withBio query: String, viewer: UserID?, limit: Int) async throws -> [AccountRecord]
    /// Hashtags starting with `prefix`, with how many public posts carry them, most used first.
    func tags(prefix: String, viewer: UserID?, limit: Int) async throws -> [TagCount]
    /// Posts whose text, workout title and notes, or exercise names contain every word of `query` (each word
    /// as a prefix), newest first.
    func posts(matching query: String, viewer: UserID?, limit: Int) async throws -> [Post]
}
