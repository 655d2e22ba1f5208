import Foundation
import PostgresNIO
import SpotterCore
import SpotterModels

// The Following feed on PostgreSQL. For most people the newest posts of the whole community hold a page of
// theirs, and walking back through them, keeping those of people followed, is the cheapest plan PostgreSQL
// has. For someone who follows few or quiet people that walk finds almost nothing: it reads deep into the
// table for someone following one person, and all of it for someone following nobody yet, the first thing a
// new member opens. So the walk stops after `FollowingFeedShape.window` posts, and a page still short goes on
// by author: each followed person's newest posts from `posts_by_author`, a few pages' worth at a time, as
// SQLite's Following feed always does.
//
// Before either, a page looks at the followed people's posts of the last month (`FeedQuery.recentFloor`), by
// author: a few index entries each. For someone following a few dozen people of a large community the walk
// passed over far more posts than it kept, and was nearly all of PostgreSQL's work on a Following page.

/// The newest `window` posts from the cursor, of the viewer and the people they follow.
enum FollowingFeedShape: FeedSourceShape {
    /// Three to four days of the benchmark's community (10,000 people, a million posts a year): a page for
    /// nearly all of its members, each following 25 to 100 people. A smaller window sent many of them past
    /// its end and on by author, which cost more than the walk it saved.
    static let window = 10_000

    static func from(_ cursor: any FeedCursorShape.Type) -> String {
        """
        (SELECT * FROM posts w \(cursor.clause("w").map { "WHERE \($0)" } ?? "")
         ORDER BY w.id \(cursor.order) LIMIT \(window)) p
        """
    }

    static let clauses = [
        """
        (p.author_id = \(PostgresPostSQL.viewer) OR p.author_id IN
          (SELECT followee_id FROM follows WHERE follower_id = \(PostgresPostSQL.viewer) AND state = 'accepted'))
        """,
        PostgresPostSQL.notMuted,
    ]
    static let bindsValue = false
    static let planFitsAll = true
}

/// Given posts, a Following page's candidates, by the same rules as every feed.
enum GivenPostsShape: FeedSourceShape {
    static let clauses = ["p.id = ANY($SOURCE::uuid[])", PostgresPostSQL.notMuted]
    static let bindsValue = true
    static let planFitsAll = true
}

/// The next `3 × rows` posts past a cursor, and from the floor on, by the viewer and the people they follow, ids
/// only: each person's from `posts_by_author`, merged. Whenever they hold a page's visible posts, those are the
/// page. The floor bounds each person's read to recent posts (the lowest id when nothing is bounded).
struct FollowingCandidatesStatement<Cursor: FeedCursorShape, Rows: FeedRowsShape>: PostgresPreparedStatement {
    static var name: String {
        StatementText.remembered(.name, of: Self.self) { "feed.following-candidates.\(Cursor.self).\(count)" }
    }

    static var count: Int { followingCandidates(Rows.self) }

    static var sql: String { StatementText.remembered(.sql, of: Self.self, written) }

    private static func written() -> String {
        """
        SELECT c.id FROM (SELECT followee_id FROM follows WHERE follower_id = $1 AND state = 'accepted'
                          UNION ALL SELECT $1::uuid) a(id)
        CROSS JOIN LATERAL (
          SELECT c.id FROM posts c
          WHERE c.author_id = a.id AND c.deleted_at IS NULL AND \(Cursor.clause("c") ?? "TRUE") AND c.id >= $3
          ORDER BY c.id \(Cursor.order) LIMIT \(count)) c
        ORDER BY c.id \(Cursor.order) LIMIT \(count)
        """.replacingOccurrences(of: "$CURSOR", with: "$2")
    }
    typealias Row = UUID

    let viewer: UUID
    let cursor: UUID
    let floor: UUID

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(viewer)
        bindings.append(cursor)
        bindings.append(floor)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(UUID.self) }
}

/// How many candidates a Following step takes for a page of `rows`.
func followingCandidates(_ rows: any FeedRowsShape.Type) -> Int {
    3 * (rows.rows ?? LargestPageRows.rows ?? PageRequest.maxLimit + 1)
}

extension PostgresPostStore {
    /// A Following page: the last month by author first (not for someone who follows many), then the window,
    /// then by author past its edge while the page is short.
    func followingPage(_ query: FeedQuery, viewer: UserID) async throws -> [Post] {
        // Someone who follows many people walks first: reading by author would take a lateral seek for each.
        if let floor = query.recentFloor, query.walkFloor == nil {
            let size = feedRows(for: query.limit, planFitsAll: true)
            let candidates = try await candidates(
                BeforeCursorShape.self, size, viewer: viewer, past: query.before?.rawValue ?? Self.beyondAll,
                floor: floor)
            if candidates.count >= query.limit {
                let given = FeedQuery(source: query.source, limit: query.limit)
                let posts = try await pageRows(GivenPostsShape.self, value: candidates, given, viewer: viewer)
                if posts.count == query.limit { return try await withKudosPreview(posts, viewer: viewer) }
            }
        }
        let ascending = query.after != nil
        var posts = try await pageRows(FollowingFeedShape.self, value: nil, query, viewer: viewer)
        if posts.count < query.limit, var edge = try await windowEdge(of: query) {
            while posts.count < query.limit {
                let size = feedRows(for: query.limit - posts.count, planFitsAll: true)
                let candidates =
                    ascending
                    ? try await candidates(
                        AfterCursorShape.self, size, viewer: viewer, past: edge, floor: Self.belowAll)
                    : try await candidates(
                        BeforeCursorShape.self, size, viewer: viewer, past: edge, floor: Self.belowAll)
                guard let last = candidates.last else { break }
                let given = FeedQuery(source: query.source, limit: query.limit - posts.count)
                posts += try await pageRows(
                    GivenPostsShape.self, value: candidates, given, viewer: viewer, ascending: ascending)
                guard candidates.count == followingCandidates(size) else { break }
                edge = last
            }
        }
        return try await withKudosPreview(posts, viewer: viewer)
    }

    private func candidates<Cursor: FeedCursorShape, Rows: FeedRowsShape>(
        _: Cursor.Type, _: Rows.Type, viewer: UserID, past edge: UUID, floor: UUID
    ) async throws -> [UUID] {
        var ids: [UUID] = []
        for id in try await database.execute(
            FollowingCandidatesStatement<Cursor, Rows>(viewer: viewer.rawValue, cursor: edge, floor: floor),
            logger: logger)
        {
            ids.append(id)
        }
        return ids
    }

    /// The last post the window walked through, or `nil` when it reached the end of the posts.
    private func windowEdge(of query: FeedQuery) async throws -> UUID? {
        let skip = FollowingFeedShape.window - 1
        let rows =
            if let after = query.after {
                try await database.query(
                    "SELECT id FROM posts WHERE id > \(after.rawValue) ORDER BY id ASC OFFSET \(skip) LIMIT 1",
                    logger: logger)
            } else if let before = query.before {
                try await database.query(
                    "SELECT id FROM posts WHERE id < \(before.rawValue) ORDER BY id DESC OFFSET \(skip) LIMIT 1",
                    logger: logger)
            } else {
                try await database.query(
                    "SELECT id FROM posts ORDER BY id DESC OFFSET \(skip) LIMIT 1", logger: logger)
            }
        for try await id in rows.decode(UUID.self) { return id }
        return nil
    }

    /// The lowest and highest UUIDs: a floor that bounds nothing, and a cursor before which every post lies.
    static let belowAll = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    static let beyondAll = UUID(
        uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))
}
