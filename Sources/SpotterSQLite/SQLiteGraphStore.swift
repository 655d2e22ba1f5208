import Foundation
import GRDB
import SpotterCore
import SpotterModels

struct SQLiteGraphStore: GraphStore {
    let pool: SQLiteDatabase

    func relationship(of viewer: UserID, with other: UserID) async throws -> Relationship {
        try await pool.read { db in
            let row = try Row.fetchOne(
                cached: db,
                sql: """
                    SELECT
                      (SELECT state FROM follows WHERE follower_id = :v AND followee_id = :o),
                      EXISTS (SELECT 1 FROM follows WHERE follower_id = :o AND followee_id = :v AND state = 'accepted'),
                      EXISTS (SELECT 1 FROM blocks WHERE blocker_id = :v AND blocked_id = :o),
                      EXISTS (SELECT 1 FROM mutes WHERE muter_id = :v AND muted_id = :o)
                    """,
                arguments: ["v": viewer.description, "o": other.description])
            let state: String? = row?[0]
            return Relationship(
                following: state == "accepted" ? .following : state == "pending" ? .requested : .none,
                followedBy: row?[1] ?? false, blocking: row?[2] ?? false, muting: row?[3] ?? false)
        }
    }

    func mayReach(_ recipient: UserID, from actor: UserID) async throws -> Bool {
        try await pool.read { db in try Self.mayReach(recipient, from: actor, db) }
    }

    /// `mayReach` inside a read that is already open (the notifier's `deliveryRules`).
    static func mayReach(_ recipient: UserID, from actor: UserID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            cached: db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM users WHERE id = :a AND suspended_at IS NULL)
                  AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = :r AND blocked_id = :a)
                                                        OR (blocker_id = :a AND blocked_id = :r))
                  AND NOT EXISTS (SELECT 1 FROM mutes WHERE muter_id = :r AND muted_id = :a)
                """,
            arguments: ["r": recipient.description, "a": actor.description]) ?? false
    }

    func follow(
        _ follower: UserID, _ followee: UserID, state: FollowEdgeState, at date: Date
    ) async throws
        -> FollowEdgeState
    {
        try await pool.write { db in
            try db.execute(
                cached: """
                    INSERT INTO follows (follower_id, followee_id, state, created_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (follower_id, followee_id) DO NOTHING
                    """,
                arguments: [follower.description, followee.description, state.rawValue, date.sqliteValue])
            let current = try String.fetchOne(
                cached: db, sql: "SELECT state FROM follows WHERE follower_id = ? AND followee_id = ?",
                arguments: [follower.description, followee.description])
            return FollowEdgeState(rawValue: current ?? state.rawValue) ?? state
        }
    }

    func unfollow(_ follower: UserID, _ followee: UserID) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                cached: "DELETE FROM follows WHERE follower_id = ? AND followee_id = ?",
                arguments: [follower.description, followee.description])
            return db.changesCount > 0
        }
    }

    func acceptFollow(_ follower: UserID, _ followee: UserID) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                cached:
                    "UPDATE follows SET state = 'accepted' WHERE follower_id = ? AND followee_id = ? AND state = 'pending'",
                arguments: [follower.description, followee.description])
            return db.changesCount > 0
        }
    }

    func acceptPendingFollows(of followee: UserID) async throws {
        try await pool.write { db in
            try db.execute(
                cached: "UPDATE follows SET state = 'accepted' WHERE followee_id = ? AND state = 'pending'",
                arguments: [followee.description])
        }
    }

    func block(_ blocker: UserID, _ blocked: UserID, at date: Date) async throws {
        try await pool.write { db in
            let a = blocker.description
            let b = blocked.description
            try db.execute(
                cached:
                    "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [a, b, date.sqliteValue])
            try db.execute(
                cached: """
                    DELETE FROM follows WHERE (follower_id = ? AND followee_id = ?) OR (follower_id = ? AND followee_id = ?)
                    """,
                arguments: [a, b, b, a])
        }
    }

    func unblock(_ blocker: UserID, _ blocked: UserID) async throws {
        try await pool.write { db in
            try db.execute(
                cached: "DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?",
                arguments: [blocker.description, blocked.description])
        }
    }

    func mute(_ muter: UserID, _ muted: UserID, at date: Date) async throws {
        try await pool.write { db in
            try db.execute(
                cached: "INSERT INTO mutes (muter_id, muted_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [muter.description, muted.description, date.sqliteValue])
        }
    }

    func unmute(_ muter: UserID, _ muted: UserID) async throws {
        try await pool.write { db in
            try db.execute(
                cached: "DELETE FROM mutes WHERE muter_id = ? AND muted_id = ?",
                arguments: [muter.description, muted.description])
        }
    }

    func followers(
        of user: UserID, state: FollowEdgeState, viewer: UserID?, after: FollowCursor?, limit: Int
    )
        async throws -> [FollowEntry]
    {
        try await list(
            edgeColumn: "followee_id", otherColumn: "follower_id", user: user, state: state, viewer: viewer,
            after: after, limit: limit)
    }

    func following(of user: UserID, viewer: UserID?, after: FollowCursor?, limit: Int) async throws -> [FollowEntry] {
        try await list(
            edgeColumn: "follower_id", otherColumn: "followee_id", user: user, state: .accepted,
            viewer: viewer, after: after, limit: limit)
    }

    func peopleInBlocks() async throws -> Set<UserID> {
        let ids = try await pool.read { db in
            try String.fetchAll(cached: db, sql: "SELECT blocker_id FROM blocks UNION SELECT blocked_id FROM blocks")
        }
        return Set(ids.compactMap(UserID.init))
    }

    func blockedEitherWay(with user: UserID) async throws -> Set<UserID> {
        try await ids(
            "SELECT blocked_id FROM blocks WHERE blocker_id = :u UNION SELECT blocker_id FROM blocks WHERE blocked_id = :u",
            user)
    }

    func muters(of user: UserID) async throws -> Set<UserID> {
        try await ids("SELECT muter_id FROM mutes WHERE muted_id = :u", user)
    }

    func followerIDs(of user: UserID) async throws -> Set<UserID> {
        try await ids("SELECT follower_id FROM follows WHERE followee_id = :u AND state = 'accepted'", user)
    }

    func followedPrivateAccounts(by user: UserID) async throws -> Set<UserID> {
        try await ids(
            """
            SELECT f.followee_id FROM follows f JOIN users u ON u.id = f.followee_id
            WHERE f.follower_id = :u AND f.state = 'accepted' AND u.privacy = 'private'
            """, user)
    }

    /// The ids one statement with a single `:u` argument selects.
    private func ids(_ sql: String, _ user: UserID) async throws -> Set<UserID> {
        let rows = try await pool.read { db in
            try String.fetchAll(cached: db, sql: sql, arguments: ["u": user.description])
        }
        return Set(rows.compactMap(UserID.init))
    }

    func restricted(
        _ kind: RestrictionKind, by user: UserID, after: FollowCursor?, limit: Int
    ) async throws
        -> [FollowEntry]
    {
        // Table and column names come from the kind, never from input.
        let (table, owner, other) =
            switch kind {
            case .blocks: ("blocks", "blocker_id", "blocked_id")
            case .mutes: ("mutes", "muter_id", "muted_id")
            }
        return try await pool.read { db in
            var arguments: StatementArguments = ["user": user.description, "limit": limit]
            var cursorClause = ""
            if let after {
                cursorClause = "AND (r.created_at, r.\(other)) < (:afterTime, :afterID)"
                _ = arguments.append(contentsOf: [
                    "afterTime": after.createdAt.sqliteValue, "afterID": after.userID.description,
                ])
            }
            let rows = try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT \(SQLiteAccountStore.columns), r.created_at FROM \(table) r
                    JOIN users ON users.id = r.\(other)
                    WHERE r.\(owner) = :user \(cursorClause)
                    ORDER BY r.created_at DESC, r.\(other) DESC
                    LIMIT :limit
                    """,
                arguments: arguments)
            return rows.compactMap { row in
                SQLiteAccountStore.record(row).map { FollowEntry(account: $0, since: Date(sqliteValue: row[15])) }
            }
        }
    }

    func suggestions(for user: UserID, limit: Int) async throws -> [AccountRecord] {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT \(SQLiteAccountStore.columns) FROM users
                    LEFT JOIN user_counts c ON c.user_id = users.id
                    WHERE users.id <> :user AND users.suspended_at IS NULL
                      AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = :user AND f.followee_id = users.id)
                      AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = :user AND b.blocked_id = users.id)
                                                              OR (b.blocker_id = users.id AND b.blocked_id = :user))
                    ORDER BY users.featured_at IS NULL, COALESCE(c.followers, 0) DESC, users.id DESC
                    LIMIT :limit
                    """,
                arguments: ["user": user.description, "limit": limit])
            return rows.compactMap(SQLiteAccountStore.record)
        }
    }

    /// Accepted follows both ways whose other end is not suspended. Triggers keep every accepted follow's
    /// count in `user_counts`; this takes away those of suspended people, probing the follow's key once for
    /// each of them (`CROSS JOIN` keeps SQLite walking the few suspended, not the many followers), so a
    /// profile costs the same however many followers it has.
    func counts(of user: UserID) async throws -> (followers: Int, following: Int) {
        try await pool.read { db in
            let row = try Row.fetchOne(
                cached: db,
                sql: """
                    SELECT
                      c.followers - (SELECT COUNT(*) FROM users s CROSS JOIN follows f
                                     WHERE s.suspended_at IS NOT NULL AND f.follower_id = s.id
                                       AND f.followee_id = c.user_id AND f.state = 'accepted'),
                      c.following - (SELECT COUNT(*) FROM users s CROSS JOIN follows f
                                     WHERE s.suspended_at IS NOT NULL AND f.follower_id = c.user_id
                                       AND f.followee_id = s.id AND f.state = 'accepted')
                    FROM user_counts c WHERE c.user_id = ?
                    """,
                arguments: [user.description])
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }

    /// Column names come from the two callers above, never from input.
    private func list(
        edgeColumn: String, otherColumn: String, user: UserID, state: FollowEdgeState, viewer: UserID?,
        after: FollowCursor?, limit: Int
    ) async throws -> [FollowEntry] {
        try await pool.read { db in
            var arguments: StatementArguments = [
                "user": user.description, "state": state.rawValue, "viewer": viewer?.description, "limit": limit,
            ]
            var cursorClause = ""
            if let after {
                cursorClause = "AND (f.created_at, f.\(otherColumn)) < (:afterTime, :afterID)"
                _ = arguments.append(contentsOf: [
                    "afterTime": after.createdAt.sqliteValue, "afterID": after.userID.description,
                ])
            }
            let rows = try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT \(SQLiteAccountStore.columns), f.created_at FROM follows f
                    JOIN users ON users.id = f.\(otherColumn)
                    WHERE f.\(edgeColumn) = :user AND f.state = :state AND users.suspended_at IS NULL
                      AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = :viewer AND b.blocked_id = users.id)
                                                              OR (b.blocker_id = users.id AND b.blocked_id = :viewer))
                      \(cursorClause)
                    ORDER BY f.created_at DESC, f.\(otherColumn) DESC
                    LIMIT :limit
                    """,
                arguments: arguments)
            return rows.compactMap { row in
                SQLiteAccountStore.record(row).map { FollowEntry(account: $0, since: Date(sqliteValue: row[15])) }
            }
        }
    }
}
