import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

struct PostgresGraphStore: GraphStore {
    let database: PostgresDatabase
    let logger: Logger

    func relationship(of viewer: UserID, with other: UserID) async throws -> Relationship {
        let rows = try await database.query(
            PostgresQuery(
                GraphSQL.relationship.postgres,
                ["viewer": PostgresBind(viewer.rawValue), "other": PostgresBind(other.rawValue)]),
            logger: logger)
        for try await (state, followedBy, blocking, muting) in rows.decode((String?, Bool, Bool, Bool).self) {
            return Relationship(
                following: state == "accepted" ? .following : state == "pending" ? .requested : .none,
                followedBy: followedBy, blocking: blocking, muting: muting)
        }
        return Relationship()
    }

    func mayReach(_ recipient: UserID, from actor: UserID) async throws -> Bool {
        let rows = try await database.query(
            PostgresQuery(
                GraphSQL.mayReach.postgres,
                ["recipient": PostgresBind(recipient.rawValue), "actor": PostgresBind(actor.rawValue)]),
            logger: logger)
        for try await reaches in rows.decode(Bool.self) { return reaches }
        return false
    }

    /// `mayReach`'s rule over two SQL expressions naming the recipient's and the actor's ids, so a query
    /// that needs it on the way (the notifier's `deliveryRules`) checks it without another round trip.
    static func reaches(recipient r: String, actor a: String) -> String {
        GraphSQL.reaches(recipient: "\(raw: r)", actor: "\(raw: a)").rendered(.postgres).text
    }

    func follow(
        _ follower: UserID, _ followee: UserID, state: FollowEdgeState, at date: Date
    ) async throws
        -> FollowEdgeState
    {
        let edge = ["follower": PostgresBind(follower.rawValue), "followee": PostgresBind(followee.rawValue)]
        try await database.query(
            PostgresQuery(
                GraphSQL.follow.postgres,
                edge.merging(["state": PostgresBind(state.rawValue), "at": PostgresBind(date)]) { $1 }),
            logger: logger)
        let rows = try await database.query(PostgresQuery(GraphSQL.followState.postgres, edge), logger: logger)
        for try await current in rows.decode(String.self) { return FollowEdgeState(rawValue: current) ?? state }
        return state
    }

    func unfollow(_ follower: UserID, _ followee: UserID) async throws -> Bool {
        try await changed(
            PostgresQuery(
                GraphSQL.unfollow.postgres,
                ["follower": PostgresBind(follower.rawValue), "followee": PostgresBind(followee.rawValue)]))
    }

    func acceptFollow(_ follower: UserID, _ followee: UserID) async throws -> Bool {
        try await changed(
            PostgresQuery(
                GraphSQL.acceptFollow.postgres,
                ["follower": PostgresBind(follower.rawValue), "followee": PostgresBind(followee.rawValue)]))
    }

    func acceptPendingFollows(of followee: UserID) async throws {
        try await database.query(
            PostgresQuery(GraphSQL.acceptPendingFollows.postgres, ["followee": PostgresBind(followee.rawValue)]),
            logger: logger)
    }

    func block(_ blocker: UserID, _ blocked: UserID, at date: Date) async throws {
        let pair = ["blocker": PostgresBind(blocker.rawValue), "blocked": PostgresBind(blocked.rawValue)]
        let block = try PostgresQuery(GraphSQL.block.postgres, pair.merging(["at": PostgresBind(date)]) { $1 })
        let unfollow = try PostgresQuery(GraphSQL.unfollowBothWays.postgres, pair)
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(block, logger: logger)
            try await connection.query(unfollow, logger: logger)
        }
    }

    func unblock(_ blocker: UserID, _ blocked: UserID) async throws {
        try await database.query(
            PostgresQuery(
                GraphSQL.unblock.postgres,
                ["blocker": PostgresBind(blocker.rawValue), "blocked": PostgresBind(blocked.rawValue)]),
            logger: logger)
    }

    func mute(_ muter: UserID, _ muted: UserID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                GraphSQL.mute.postgres,
                [
                    "muter": PostgresBind(muter.rawValue), "muted": PostgresBind(muted.rawValue),
                    "at": PostgresBind(date),
                ]),
            logger: logger)
    }

    func unmute(_ muter: UserID, _ muted: UserID) async throws {
        try await database.query(
            PostgresQuery(
                GraphSQL.unmute.postgres,
                ["muter": PostgresBind(muter.rawValue), "muted": PostgresBind(muted.rawValue)]),
            logger: logger)
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
        // The kept counts less suspended people's follows (`GraphSQL.counts`).
        let rows = try await database.query(
            PostgresQuery(GraphSQL.counts.postgres, ["user": PostgresBind(user.rawValue)]), logger: logger)
        for try await (followers, following) in rows.decode((Int, Int).self) { return (followers, following) }
        return (0, 0)
    }

    func peopleInBlocks() async throws -> Set<UserID> {
        let rows = try await database.query(PostgresQuery(GraphSQL.peopleInBlocks.postgres, [:]), logger: logger)
        var people: Set<UserID> = []
        for try await id in rows.decode(UUID.self) { people.insert(UserID(rawValue: id)) }
        return people
    }

    func blockedEitherWay(with user: UserID) async throws -> Set<UserID> {
        try await ids(GraphSQL.blockedEitherWay, user)
    }

    func muters(of user: UserID) async throws -> Set<UserID> {
        try await ids(GraphSQL.muters, user)
    }

    func followerIDs(of user: UserID) async throws -> Set<UserID> {
        try await ids(GraphSQL.followerIDs, user)
    }

    func followedPrivateAccounts(by user: UserID) async throws -> Set<UserID> {
        try await ids(GraphSQL.followedPrivateAccounts, user)
    }

    /// The ids one statement with a single `user` bind selects.
    private func ids(_ statement: SQLStatement, _ user: UserID) async throws -> Set<UserID> {
        var people: Set<UserID> = []
        let query = try PostgresQuery(statement.postgres, ["user": PostgresBind(user.rawValue)])
        for try await id in try await database.query(query, logger: logger).decode(UUID.self) {
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
        let cursor: SQLText = """
            AND ((extract(epoch FROM r.created_at) * 1000000)::bigint, r.\(raw: other)) < (\(
                bind: "afterMicros"), \(bind: "afterID"))
            """
        let query = try PostgresQuery(
            GraphSQL.restricted(table: table, owner: owner, other: other, cursor: cursor).rendered(.postgres),
            [
                "user": PostgresBind(user.rawValue), "afterMicros": PostgresBind(afterMicros),
                "afterID": PostgresBind(afterID), "limit": PostgresBind(limit),
            ])
        var entries: [FollowEntry] = []
        for try await row in try await database.query(query, logger: logger) {
            let access = row.makeRandomAccess()
            entries.append(
                FollowEntry(
                    account: try PostgresAccountStore.record(access, offset: 0), since: try access[15].decode(Date.self)
                ))
        }
        return entries
    }

    func suggestions(for user: UserID, limit: Int) async throws -> [AccountRecord] {
        let rows = try await database.query(
            PostgresQuery(
                GraphSQL.suggestions.postgres, ["user": PostgresBind(user.rawValue), "limit": PostgresBind(limit)]),
            logger: logger)
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
        var binds = [
            "viewer": PostgresBind(viewer?.rawValue), "user": PostgresBind(user.rawValue),
            "state": PostgresBind(state.rawValue), "limit": PostgresBind(limit),
        ]
        var cursor: SQLText = ""
        if let after {
            cursor = GraphSQL.followsAfter(other: otherColumn)
            binds["afterTime"] = PostgresBind(after.createdAt)
            binds["afterID"] = PostgresBind(after.userID.rawValue)
        }
        let query = try PostgresQuery(
            GraphSQL.follows(edge: edgeColumn, other: otherColumn, cursor: cursor).rendered(.postgres), binds)
        var entries: [FollowEntry] = []
        for try await row in try await database.query(query, logger: logger) {
            let access = row.makeRandomAccess()
            entries.append(
                FollowEntry(
                    account: try PostgresAccountStore.record(access, offset: 0), since: try access[15].decode(Date.self)
                ))
        }
        return entries
    }

    private func changed(_ query: PostgresQuery) async throws -> Bool {
        for try await _ in try await database.query(query, logger: logger) { return true }
        return false
    }
}
