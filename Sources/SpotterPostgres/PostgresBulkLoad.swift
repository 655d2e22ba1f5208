import Foundation
import PostgresNIO
import SpotterCore
import SpotterModels

/// Bulk loading for PostgreSQL: each batch is one transaction of multi-row `INSERT`s, a few hundred rows each,
/// so a million rows cost a few thousand round trips instead of a million.
///
/// Multi-row `VALUES` rather than `UNNEST` of arrays because several columns are nullable and PostgresNIO
/// cannot encode arrays with NULL elements.
extension PostgresStorage: BulkLoading {
    /// Rows per `INSERT`: 500 rows of the widest table (17 columns) stay far below the 65,535 binds a
    /// statement may carry, while parsing stays cheap.
    static let rowsPerInsert = 500

    public func loadAccounts(_ accounts: [AccountRecord]) async throws {
        let columns = [
            "id", "username", "username_key", "email", "email_key", "password_hash", "display_name",
            "apple_subject", "created_at", "bio", "avatar_url", "units", "time_zone", "privacy", "role",
            "suspended_at", "featured_at",
        ]
        try await insert(into: "users", columns: columns, rows: accounts) { account, binds in
            binds.append(account.id.rawValue)
            binds.append(account.username)
            binds.append(account.username.lowercased())
            binds.append(account.email)
            binds.append(account.email?.lowercased())
            binds.append(account.passwordHash)
            binds.append(account.displayName)
            binds.append(account.appleSubject)
            binds.append(account.createdAt)
            binds.append(account.profile.bio)
            binds.append(account.profile.avatarURL)
            binds.append(account.profile.units.rawValue)
            binds.append(account.profile.timeZone)
            binds.append(account.profile.privacy.rawValue)
            binds.append(account.role.rawValue)
            binds.append(account.suspendedAt)
            binds.append(account.featuredAt)
        }
    }

    public func loadFollows(_ follows: [(follower: UserID, followee: UserID, at: Date)]) async throws {
        let columns = ["follower_id", "followee_id", "state", "created_at"]
        try await insert(into: "follows", columns: columns, rows: follows) { follow, binds in
            binds.append(follow.follower.rawValue)
            binds.append(follow.followee.rawValue)
            binds.append(FollowEdgeState.accepted.rawValue)
            binds.append(follow.at)
        }
    }

    public func loadPosts(_ posts: [PostRecord]) async throws {
        let columns = [
            "id", "author_id", "kind", "text", "visibility", "workout", "records", "hashtags", "mentions",
            "template_id", "text_hash", "in_global", "performed_at", "created_at", "edited_at", "deleted_at",
            "group_id",
        ]
        let tags = posts.flatMap { post in post.hashtags.map { (tag: $0, post: post.id) } }
        try await client.withTransaction(logger: logger) { connection in
            try await insert(into: "posts", columns: columns, rows: posts, on: connection) { post, binds in
                binds.append(post.id.rawValue)
                binds.append(post.authorID.rawValue)
                binds.append(post.kind.rawValue)
                binds.append(post.text)
                binds.append(post.storedVisibility)
                binds.append(post.workout.map(StoredJSON.encode))
                binds.append(StoredJSON.encode(post.records))
                binds.append(StoredJSON.encode(post.hashtags))
                binds.append(StoredJSON.encode(post.mentions))
                binds.append(post.workout?.templateID?.rawValue)
                binds.append(post.textHash)
                binds.append(post.inGlobal)
                binds.append(post.performedAt)
                binds.append(post.createdAt)
                binds.append(post.editedAt)
                binds.append(post.deletedAt)
                binds.append(post.groupID?.rawValue)
            }
            try await insert(into: "post_tags", columns: ["tag", "post_id"], rows: tags, on: connection) {
                tag, binds in
                binds.append(tag.tag)
                binds.append(tag.post.rawValue)
            }
        }
    }

    public func loadGroupMembers(
        _ members: [(group: GroupID, user: UserID, role: GroupRole, at: Date)]
    ) async throws {
        try await insert(into: "group_members", columns: ["group_id", "user_id", "standing", "since"], rows: members) {
            member, binds in
            binds.append(member.group.rawValue)
            binds.append(member.user.rawValue)
            binds.append(member.role.rawValue)
            binds.append(member.at)
        }
    }

    public func analyze() async throws {
        try await client.query("ANALYZE", logger: logger)
    }

    public func size() async throws -> (accounts: Int, posts: Int) {
        let rows = try await client.query(
            "SELECT (SELECT COUNT(*) FROM users), (SELECT COUNT(*) FROM posts)", logger: logger)
        for try await (accounts, posts) in rows.decode((Int, Int).self) {
            return (accounts, posts)
        }
        return (0, 0)
    }

    /// Inserts `rows` in one transaction of its own.
    private func insert<Row: Sendable>(
        into table: String, columns: [String], rows: [Row], bind: @Sendable (Row, inout PostgresBindings) -> Void
    ) async throws {
        guard !rows.isEmpty else { return }
        try await client.withTransaction(logger: logger) { connection in
            try await insert(into: table, columns: columns, rows: rows, on: connection, bind: bind)
        }
    }

    /// Inserts `rows`, `rowsPerInsert` per statement. The SQL holds only the literal table and column names
    /// given above and numbered placeholders; every value travels as a bind.
    private func insert<Row>(
        into table: String, columns: [String], rows: [Row], on connection: PostgresConnection,
        bind: (Row, inout PostgresBindings) -> Void
    ) async throws {
        for start in stride(from: 0, to: rows.count, by: Self.rowsPerInsert) {
            let chunk = rows[start..<min(start + Self.rowsPerInsert, rows.count)]
            var binds = PostgresBindings(capacity: chunk.count * columns.count)
            for row in chunk { bind(row, &binds) }
            let tuples = (0..<chunk.count).map { row in
                "(" + (1...columns.count).map { "$\(row * columns.count + $0)" }.joined(separator: ", ") + ")"
            }
            let sql = """
                INSERT INTO \(table) (\(columns.joined(separator: ", ")))
                VALUES \(tuples.joined(separator: ", "))
                """
            try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        }
    }
}
