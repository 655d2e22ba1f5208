import Foundation
import GRDB
import SpotterCore
import SpotterModels

/// Bulk loading for SQLite: each batch is one write transaction in which one prepared statement per table is
/// bound and stepped for every row, so SQLite parses each statement once and syncs once per batch.
extension SQLiteStorage: BulkLoading {
    public func loadAccounts(_ accounts: [AccountRecord]) async throws {
        try await pool.write { db in
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO users (id, username, username_key, email, email_key, password_hash, display_name,
                                       apple_subject, created_at, bio, avatar_url, units, time_zone, privacy, role,
                                       suspended_at, featured_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for account in accounts {
                try insert.execute(arguments: [
                    account.id.description, account.username, account.username.lowercased(), account.email,
                    account.email?.lowercased(), account.passwordHash, account.displayName, account.appleSubject,
                    account.createdAt.sqliteValue, account.profile.bio, account.profile.avatarURL,
                    account.profile.units.rawValue, account.profile.timeZone, account.profile.privacy.rawValue,
                    account.role.rawValue, account.suspendedAt?.sqliteValue, account.featuredAt?.sqliteValue,
                ])
            }
        }
    }

    public func loadFollows(_ follows: [(follower: UserID, followee: UserID, at: Date)]) async throws {
        try await pool.write { db in
            let insert = try db.makeStatement(
                sql: "INSERT INTO follows (follower_id, followee_id, state, created_at) VALUES (?, ?, 'accepted', ?)")
            for follow in follows {
                try insert.execute(arguments: [
                    follow.follower.description, follow.followee.description, follow.at.sqliteValue,
                ])
            }
        }
    }

    public func loadPosts(_ posts: [PostRecord]) async throws {
        try await pool.write { db in
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO posts (id, author_id, kind, text, visibility, workout, records, hashtags, mentions,
                                       template_id, text_hash, in_global, performed_at, created_at, edited_at,
                                       deleted_at, group_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            let tag = try db.makeStatement(
                sql: "INSERT INTO post_tags (tag, post_id) VALUES (?, ?) ON CONFLICT DO NOTHING")
            for post in posts {
                let id = post.id.description
                try insert.execute(arguments: [
                    id, post.authorID.description, post.kind.rawValue, post.text, post.storedVisibility,
                    post.workout.map(StoredJSON.encode), StoredJSON.encode(post.records),
                    StoredJSON.encode(post.hashtags), StoredJSON.encode(post.mentions),
                    post.workout?.templateID?.description, post.textHash, post.inGlobal,
                    post.performedAt.sqliteValue, post.createdAt.sqliteValue, post.editedAt?.sqliteValue,
                    post.deletedAt?.sqliteValue, post.groupID?.description,
                ])
                for hashtag in post.hashtags {
                    try tag.execute(arguments: [hashtag, id])
                }
            }
        }
    }

    public func loadGroupMembers(
        _ members: [(group: GroupID, user: UserID, role: GroupRole, at: Date)]
    ) async throws {
        try await pool.write { db in
            let insert = try db.makeStatement(
                sql: "INSERT INTO group_members (group_id, user_id, standing, since) VALUES (?, ?, ?, ?)")
            for member in members {
                try insert.execute(arguments: [
                    member.group.description, member.user.description, member.role.rawValue, member.at.sqliteValue,
                ])
            }
        }
    }

    public func analyze() async throws {
        try await pool.write { db in try db.execute(sql: "ANALYZE") }
    }

    public func size() async throws -> (accounts: Int, posts: Int) {
        try await pool.read { db in
            let accounts = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 0
            let posts = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM posts") ?? 0
            return (accounts, posts)
        }
    }
}
