import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

struct SQLiteGraphStore: GraphStore {
    let database: SQLiteDatabase

    func relationship(of viewer: UserID, with other: UserID) async throws -> Relationship {
        try await database.read { db in
            let row = try Row.fetchOne(
                cached: db,
                sql: GraphSQL.relationship.sqlite,
                arguments: ["viewer": viewer.description, "other": other.description])
            let state: String? = row?[0]
            return Relationship(
                following: state == "accepted" ? .following : state == "pending" ? .requested : .none,
                followedBy: row?[1] ?? false, blocking: row?[2] ?? false, muting: row?[3] ?? false)
        }
    }

    func mayReach(_ recipient: UserID, from actor: UserID) async throws -> Bool {
        try await database.read { db in try Self.mayReach(recipient, from: actor, db) }
    }

    /// `mayReach` inside a read that is already open (the notifier's `deliveryRules`).
    static func mayReach(_ recipient: UserID, from actor: UserID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            cached: db,
            sql: GraphSQL.mayReach.sqlite,
            arguments: ["recipient": recipient.description, "actor": actor.description]) ?? false
    }

    func follow(
        _ follower: UserID, _ followee: UserID, state: FollowEdgeState, at date: Date
    ) async throws
        -> FollowEdgeState
    {
        try await database.write { db in
            let edge: StatementArguments = ["follower": follower.description, "followee": followee.description]
            try db.execute(
                cached: GraphSQL.follow.sqlite,
                arguments: edge + ["state": state.rawValue, "at": date.sqliteValue])
            let current = try String.fetchOne(cached: db, sql: GraphSQL.followState.sqlite, arguments: edge)
            return FollowEdgeState(rawValue: current ?? state.rawValue) ?? state
        }
    }

    func unfollow(_ follower: UserID, _ followee: UserID) async throws -> Bool {
        try await database.write { db in
            try Row.fetchOne(
                cached: db, sql: GraphSQL.unfollow.sqlite,
                arguments: ["follower": follower.description, "followee": followee.description]) != nil
        }
    }

    func acceptFollow(_ follower: UserID, _ followee: UserID) async throws -> Bool {
        try await database.write { db in
            try Row.fetchOne(
                cached: db, sql: GraphSQL.acceptFollow.sqlite,
                arguments: ["follower": follower.description, "followee": followee.description]) != nil
        }
    }

    func acceptPendingFollows(of followee: UserID) async throws {
        try await database.write { db in
            try db.execute(
                cached: GraphSQL.acceptPendingFollows.sqlite, arguments: ["followee": followee.description])
        }
    }

    func block(_ blocker: UserID, _ blocked: UserID, at date: Date) async throws {
        try await database.write { db in
            let pair: StatementArguments = ["blocker": blocker.description, "blocked": blocked.description]
            try db.execute(cached: GraphSQL.block.sqlite, arguments: pair + ["at": date.sqliteValue])
            try db.execute(cached: GraphSQL.unfollowBothWays.sqlite, arguments: pair)
        }
    }

    func unblock(_ blocker: UserID, _ blocked: UserID) async throws {
        try await database.write { db in
            try db.execute(
                cached: GraphSQL.unblock.sqlite,
                arguments: ["blocker": blocker.description, "blocked": blocked.description])
        }
    }

    func mute(_ muter: UserID, _ muted: UserID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: GraphSQL.mute.sqlite,
                arguments: ["muter": muter.description, "muted": muted.description, "at": date.sqliteValue])
        }
    }

    func unmute(_ muter: UserID, _ muted: UserID) async throws {
        try await database.write { db in
            try db.execute(
                cached: GraphSQL.unmute.sqlite, arguments: ["muter": muter.description, "muted": muted.description])
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
        let ids = try await database.read { db in
            try String.fetchAll(cached: db, sql: GraphSQL.peopleInBlocks.sqlite)
        }
        return Set(ids.compactMap(UserID.init))
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

    /// The ids one statement with a single `user` argument selects.
    private func ids(_ statement: SQLStatement, _ user: UserID) async throws -> Set<UserID> {
        let rows = try await database.read { db in
            try String.fetchAll(cached: db, sql: statement.sqlite, arguments: ["user": user.description])
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
        return try await database.read { db in
            var arguments: StatementArguments = ["user": user.description, "limit": limit]
            var cursor: SQLText = ""
            if let after {
                cursor = "AND (r.created_at, r.\(raw: other)) < (\(bind: "afterTime"), \(bind: "afterID"))"
                _ = arguments.append(contentsOf: [
                    "afterTime": after.createdAt.sqliteValue, "afterID": after.userID.description,
                ])
            }
            let rows = try Row.fetchAll(
                cached: db,
                sql: GraphSQL.restricted(table: table, owner: owner, other: other, cursor: cursor).rendered(.sqlite)
                    .text,
                arguments: arguments)
            return rows.compactMap { row in
                SQLiteAccountStore.record(row).map { FollowEntry(account: $0, since: Date(sqliteValue: row[15])) }
            }
        }
    }

    func suggestions(for user: UserID, limit: Int) async throws -> [AccountRecord] {
        try await database.read { db in
            let rows = try Row.fetchAll(
                cached: db,
                sql: GraphSQL.suggestions.sqlite,
                arguments: ["user": user.description, "limit": limit])
            return rows.compactMap(SQLiteAccountStore.record)
        }
    }

    /// Accepted follows both ways whose other end is not suspended (`GraphSQL.counts`).
    func counts(of user: UserID) async throws -> (followers: Int, following: Int) {
        try await database.read { db in
            let row = try Row.fetchOne(
                cached: db,
                sql: GraphSQL.counts.sqlite, arguments: ["user": user.description])
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }

    /// Column names come from the two callers above, never from input.
    private func list(
        edgeColumn: String, otherColumn: String, user: UserID, state: FollowEdgeState, viewer: UserID?,
        after: FollowCursor?, limit: Int
    ) async throws -> [FollowEntry] {
        try await database.read { db in
            var arguments: StatementArguments = [
                "user": user.description, "state": state.rawValue, "viewer": viewer?.description, "limit": limit,
            ]
            var cursor: SQLText = ""
            if let after {
                cursor = GraphSQL.followsAfter(other: otherColumn)
                _ = arguments.append(contentsOf: [
                    "afterTime": after.createdAt.sqliteValue, "afterID": after.userID.description,
                ])
            }
            let rows = try Row.fetchAll(
                cached: db,
                sql: GraphSQL.follows(edge: edgeColumn, other: otherColumn, cursor: cursor).rendered(.sqlite).text,
                arguments: arguments)
            return rows.compactMap { row in
                SQLiteAccountStore.record(row).map { FollowEntry(account: $0, since: Date(sqliteValue: row[15])) }
            }
        }
    }
}
