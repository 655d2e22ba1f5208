import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels

struct PostgresGraphStore: GraphStore {
    let client: PostgresDatabase
    let logger: Logger

    func relationship(of viewer: UserID, with other: UserID) async throws -> Relationship {
        let v = viewer.rawValue
        let o = other.rawValue
        let rows = try await client.query(
            """
            SELECT
              (SELECT state FROM follows WHERE follower_id = \(v) AND followee_id = \(o)),
              EXISTS (SELECT 1 FROM follows WHERE follower_id = \(o) AND followee_id = \(v) AND state = 'accepted'),
              EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(v) AND blocked_id = \(o)),
              EXISTS (SELECT 1 FROM mutes WHERE muter_id = \(v) AND muted_id = \(o))
            """, logger: logger)
        for try await (state, followedBy, blocking, muting) in rows.decode((String?, Bool, Bool, Bool).self) {
            return Relationship(
                following: state == "accepted" ? .following : state == "pending" ? .requested : .none,
                followedBy: followedBy, blocking: blocking, muting: muting)
        }
        return Relationship()
    }

    func mayReach(_ recipient: UserID, from actor: UserID) async throws -> Bool {
        let rows = try await client.query(
            """
            SELECT \(unescaped: Self.reaches(recipient: "p.r", actor: "p.a"))
            FROM (VALUES (\(recipient.rawValue), \(actor.rawValue))) AS p(r, a)
            """, logger: logger)
        for try await reaches in rows.decode(Bool.self) { return reaches }
        return false
    }

    /// `mayReach`'s rule over two SQL expressions naming the recipient's and the actor's ids, so a query
    /// that needs it on the way (the notifier's `deliveryRules`) checks it without another round trip.
    static func reaches(recipient r: String, actor a: String) -> String {
        """
        EXISTS (SELECT 1 FROM users WHERE id = \(a) AND suspended_at IS NULL)
          AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = \(r) AND blocked_id = \(a))
                                                OR (blocker_id = \(a) AND blocked_id = \(r)))
          AND NOT EXISTS (SELECT 1 FROM mutes WHERE muter_id = \(r) AND muted_id = \(a))
        """
    }

    func follow(
        _ follower: UserID, _ followee: UserID, state: FollowEdgeState, at date: Date
    ) async throws
        -> FollowEdgeState
    {
        try await client.query(
            """
            INSERT INTO follows (follower_id, followee_id, state, created_at)
            VALUES (\(follower.rawValue), \(followee.rawValue), \(state.rawValue), \(date))
            ON CONFLICT (follower_id, followee_id) DO NOTHING
            """, logger: logger)
        let rows = try await client.query(
            "SELECT state FROM follows WHERE follower_id = \(follower.rawValue) AND followee_id = \(followee.rawValue)",
            logger: logger)
        for try await current in rows.decode(String.self) { return FollowEdgeState(rawValue: current) ?? state }
        return state
    }

    func unfollow(_ follower: UserID, _ followee: UserID) async throws -> Bool {
        try await changed(
            """
            DELETE FROM follows WHERE follower_id = \(follower.rawValue) AND followee_id = \(followee.rawValue)
            RETURNING 1
            """)
    }

    func acceptFollow(_ follower: UserID, _ followee: UserID) async throws -> Bool {
        try await changed(
            """
            UPDATE follows SET state = 'accepted'
            WHERE follower_id = \(follower.rawValue) AND followee_id = \(followee.rawValue) AND state = 'pending'
            RETURNING 1
            """)
    }

    func acceptPendingFollows(of followee: UserID) async throws {
        try await client.query(
            "UPDATE follows SET state = 'accepted' WHERE followee_id = \(followee.rawValue) AND state = 'pending'",
            logger: logger)
    }

    func block(_ blocker: UserID, _ blocked: UserID, at date: Date) async throws {
        let a = blocker.rawValue
        let b = blocked.rawValue
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (\(a), \(b), \(date)) ON CONFLICT DO NOTHING",
                logger: logger)
            try await connection.query(
                """
                DELETE FROM follows
                WHERE (follower_id = \(a) AND followee_id = \(b)) OR (follower_id = \(b) AND followee_id = \(a))
                """, logger: logger)
        }
    }

    func unblock(_ blocker: UserID, _ blocked: UserID) async throws {
        try await client.query(
            "DELETE FROM blocks WHERE blocker_id = \(blocker.rawValue) AND blocked_id = \(blocked.rawValue)",
            logger: logger)
    }

    func mute(_ muter: UserID, _ muted: UserID, at date: Date) async throws {
        try await client.query(
            """
            INSERT INTO mutes (muter_id, muted_id, created_at) VALUES (\(muter.rawValue), \(muted.rawValue), \(date))
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    func unmute(_ muter: UserID, _ muted: UserID) async throws {
        try await client.query(
            "DELETE FROM mutes WHERE muter_id = \(muter.rawValue) AND muted_id = \(muted.rawValue)", logger: logger)
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

    func counts(of user: UserID) async throws -> (followers: Int, following: Int) {
        let u = user.rawValue
        // The kept counts less suspended people's follows (see the SQLite twin).
        let rows = try await client.query(
            """
            SELECT
              c.followers - (SELECT COUNT(*) FROM users s JOIN follows f ON f.follower_id = s.id
                             WHERE s.suspended_at IS NOT NULL AND f.followee_id = c.user_id
                               AND f.state = 'accepted'),
              c.following - (SELECT COUNT(*) FROM users s JOIN follows f ON f.followee_id = s.id
                             WHERE s.suspended_at IS NOT NULL AND f.follower_id = c.user_id
                               AND f.state = 'accepted')
            FROM user_counts c WHERE c.user_id = \(u)
            """, logger: logger)
        for try await (followers, following) in rows.decode((Int, Int).self) { return (followers, following) }
        return (0, 0)
    }

    func peopleInBlocks() async throws -> Set<UserID> {
        let rows = try await client.query(
            "SELECT blocker_id FROM blocks UNION SELECT blocked_id FROM blocks", logger: logger)
        var people: Set<UserID> = []
        for try await id in rows.decode(UUID.self) { people.insert(UserID(rawValue: id)) }
        return people
    }

    func blockedEitherWay(with user: UserID) async throws -> Set<UserID> {
        try await ids(
            """
            SELECT blocked_id FROM blocks WHERE blocker_id = \(user.rawValue)
            UNION SELECT blocker_id FROM blocks WHERE blocked_id = \(user.rawValue)
            """)
    }

    func muters(of user: UserID) async throws -> Set<UserID> {
        try await ids("SELECT muter_id FROM mutes WHERE muted_id = \(user.rawValue)")
    }

    func followerIDs(of user: UserID) async throws -> Set<UserID> {
        try await ids("SELECT follower_id FROM follows WHERE followee_id = \(user.rawValue) AND state = 'accepted'")
    }

    func followedPrivateAccounts(by user: UserID) async throws -> Set<UserID> {
        try await ids(
            """
            SELECT f.followee_id FROM follows f JOIN users u ON u.id = f.followee_id
            WHERE f.follower_id = \(user.rawValue) AND f.state = 'accepted' AND u.privacy = 'private'
            """)
    }

    private func ids(_ query: PostgresQuery) async throws -> Set<UserID> {
        var people: Set<UserID> = []
        for try await id in try await client.query(query, logger: logger).decode(UUID.self) {
            people.insert(UserID(rawValue: id))
        }
        return people
    }

    /// Column names come from the two callers above, never from input.
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
        // Past the cursor, or from the start: a time far ahead and the greatest id let every row through.
        // The cursor's time is compared in whole microseconds, as stored: a `Date` bound back truncates to
        // the microsecond below now and then, which skipped a row made in the same microsecond as the last.
        let afterMicros = after.map { Int64(($0.createdAt.timeIntervalSince1970 * 1_000_000).rounded()) } ?? .max
        let afterID = after?.userID.rawValue ?? UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!
        let query: PostgresQuery = """
            SELECT \(unescaped: PostgresAccountStore.columns), r.created_at FROM \(unescaped: table) r
            JOIN users ON users.id = r.\(unescaped: other)
            WHERE r.\(unescaped: owner) = \(user.rawValue)
              AND ((extract(epoch FROM r.created_at) * 1000000)::bigint, r.\(unescaped: other)) < (\(afterMicros), \(afterID))
            ORDER BY r.created_at DESC, r.\(unescaped: other) DESC
            LIMIT \(limit)
            """
        var entries: [FollowEntry] = []
        for try await row in try await client.query(query, logger: logger) {
            let access = row.makeRandomAccess()
            entries.append(
                FollowEntry(
                    account: try PostgresAccountStore.record(access, offset: 0), since: try access[15].decode(Date.self)
                ))
        }
        return entries
    }

    func suggestions(for user: UserID, limit: Int) async throws -> [AccountRecord] {
        let u = user.rawValue
        let rows = try await client.query(
            """
            SELECT \(unescaped: PostgresAccountStore.columns) FROM users
            LEFT JOIN user_counts c ON c.user_id = users.id
            WHERE users.id <> \(u) AND users.suspended_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = \(u) AND f.followee_id = users.id)
              AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = \(u) AND b.blocked_id = users.id)
                                                      OR (b.blocker_id = users.id AND b.blocked_id = \(u)))
            ORDER BY users.featured_at IS NULL, COALESCE(c.followers, 0) DESC, users.id DESC
            LIMIT \(limit)
            """, logger: logger)
        var accounts: [AccountRecord] = []
        for try await row in rows {
            accounts.append(try PostgresAccountStore.record(row.makeRandomAccess(), offset: 0))
        }
        return accounts
    }

    private func list(
        edgeColumn: String, otherColumn: String, user: UserID, state: FollowEdgeState, viewer: UserID?,
        after: FollowCursor?, limit: Int
    ) async throws -> [FollowEntry] {
        var builder = PostgresPostSQL.Builder(viewer: viewer?.rawValue)
        let userBind = try builder.bind(user.rawValue)
        let stateBind = try builder.bind(state.rawValue)
        var cursorClause = ""
        if let after {
            cursorClause =
                "AND (f.created_at, f.\(otherColumn)) < (\(try builder.bind(after.createdAt)), \(try builder.bind(after.userID.rawValue)))"
        }
        let limitBind = try builder.bind(limit)
        let sql = """
            SELECT \(PostgresAccountStore.columns), f.created_at FROM follows f
            JOIN users ON users.id = f.\(otherColumn)
            WHERE f.\(edgeColumn) = \(userBind) AND f.state = \(stateBind) AND \(PostgresPostSQL.listable("users"))
              \(cursorClause)
            ORDER BY f.created_at DESC, f.\(otherColumn) DESC
            LIMIT \(limitBind)
            """
        var entries: [FollowEntry] = []
        for try await row in try await client.query(builder.query(sql), logger: logger) {
            let access = row.makeRandomAccess()
            entries.append(
                FollowEntry(
                    account: try PostgresAccountStore.record(access, offset: 0), since: try access[15].decode(Date.self)
                ))
        }
        return entries
    }

    private func changed(_ query: PostgresQuery) async throws -> Bool {
        for try await _ in try await client.query(query, logger: logger) { return true }
        return false
    }
}
