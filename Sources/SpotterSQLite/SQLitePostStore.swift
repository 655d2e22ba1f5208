import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

struct SQLitePostStore: PostStore {
    let database: SQLiteDatabase

    func insert(_ post: PostRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: PostStoreSQL.insert.sqlite,
                arguments: [
                    "id": post.id.description, "author": post.authorID.description, "kind": post.kind.rawValue,
                    "text": post.text, "visibility": post.storedVisibility,
                    "workout": post.workout.map(StoredJSON.encode), "records": StoredJSON.encode(post.records),
                    "hashtags": StoredJSON.encode(post.hashtags), "mentions": StoredJSON.encode(post.mentions),
                    "template": post.workout?.templateID?.description, "textHash": post.textHash,
                    "inGlobal": post.inGlobal, "performedAt": post.performedAt.sqliteValue,
                    "createdAt": post.createdAt.sqliteValue,
                ])
            // The group in its own statement, only for a group post, as the photos below: the column's default
            // is none, and the statement above stays valid for a schema migrated only part way (the counting
            // migrations' tests write posts before later migrations run).
            if let group = post.groupID {
                try db.execute(
                    cached: PostStoreSQL.setGroup.sqlite,
                    arguments: ["group": group.description, "id": post.id.description])
            }
            // Photos in their own statement, only when there are some: the column's default is no photos.
            if !post.media.isEmpty {
                try db.execute(
                    cached: PostStoreSQL.setMedia.sqlite,
                    arguments: ["media": StoredMedia.encode(post.media), "id": post.id.description])
            }
            // Sealed content likewise, only in an encrypted group.
            if let sealed = post.sealed {
                try db.execute(
                    cached: PostStoreSQL.setSealed.sqlite,
                    arguments: ["sealed": StoredJSON.encode(sealed), "id": post.id.description])
            }
            try Self.writeTags(post, db)
        }
    }

    func update(_ post: PostRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: PostStoreSQL.update.sqlite,
                arguments: [
                    "text": post.text, "visibility": post.storedVisibility,
                    "workout": post.workout.map(StoredJSON.encode), "records": StoredJSON.encode(post.records),
                    "hashtags": StoredJSON.encode(post.hashtags), "mentions": StoredJSON.encode(post.mentions),
                    "template": post.workout?.templateID?.description, "textHash": post.textHash,
                    "inGlobal": post.inGlobal, "performedAt": post.performedAt.sqliteValue,
                    "editedAt": post.editedAt?.sqliteValue, "media": StoredMedia.encode(post.media),
                    "id": post.id.description,
                ])
            try db.execute(cached: PostStoreSQL.deleteTags.sqlite, arguments: ["id": post.id.description])
            try Self.writeTags(post, db)
        }
    }

    private static func writeTags(_ post: PostRecord, _ db: Database) throws {
        for tag in post.hashtags {
            try db.execute(
                cached: "INSERT INTO post_tags (tag, post_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                arguments: [tag, post.id.description])
        }
    }

    func tombstone(_ id: PostID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: PostStoreSQL.tombstone.sqlite, arguments: ["at": date.sqliteValue, "id": id.description])
        }
    }

    func record(_ id: PostID) async throws -> PostRecord? {
        try await database.read { db in try Self.record(id, db) }
    }

    /// `record` inside a read that is already open (a notification group's post).
    static func record(_ id: PostID, _ db: Database) throws -> PostRecord? {
        try Row.fetchOne(
            cached: db,
            sql: PostStoreSQL.record.sqlite,
            arguments: ["id": id.description]
        ).flatMap { row in
            guard let id = PostID(row[0] as String), let author = UserID(row[1] as String),
                let kind = PostKind(rawValue: row[2]), let visibility = Visibility(rawValue: row[4])
            else { return nil }
            return PostRecord(
                id: id, authorID: author, kind: kind, text: row[3],
                visibility: (row[16] as String?) == nil ? visibility : .group,
                workout: StoredJSON.decodeRemembered(WorkoutRecord.self, from: row[5]),
                records: StoredJSON.decode([PersonalRecord].self, from: row[6]) ?? [],
                hashtags: StoredJSON.decode([String].self, from: row[7]) ?? [],
                mentions: StoredJSON.decode([String].self, from: row[8]) ?? [], textHash: row[9],
                inGlobal: row[10], performedAt: Date(sqliteValue: row[11]),
                createdAt: Date(sqliteValue: row[12]),
                editedAt: (row[13] as Double?).map(Date.init(sqliteValue:)),
                deletedAt: (row[14] as Double?).map(Date.init(sqliteValue:)), media: StoredMedia.decode(row[15]),
                groupID: (row[16] as String?).flatMap(GroupID.init))
        }
    }

    func feed(_ query: FeedQuery, viewer: UserID?) async throws -> [Post] {
        if case .following = query.source, viewer != nil {
            // Each step is taken only when the one before it found less than a page: the feed is short, or
            // many were hidden.
            if let walkFloor = query.walkFloor.map(UUIDText.format) {
                let posts = try await feedQuery(
                    query, viewer: viewer, candidates: query.limit * 3, floor: walkFloor, walk: true)
                if posts.count == query.limit { return posts }
            }
            if let floor = query.recentFloor.map(UUIDText.format) {
                let posts = try await feedQuery(query, viewer: viewer, candidates: query.limit * 3, floor: floor)
                if posts.count == query.limit { return posts }
            }
            let posts = try await feedQuery(query, viewer: viewer, candidates: query.limit * 3)
            if posts.count == query.limit { return posts }
        }
        return try await feedQuery(query, viewer: viewer, candidates: nil)
    }

    /// One feed page. With `candidates`, the Following feed first takes that many newest posts of the people
    /// followed from the covering index `posts_by_author(author_id, id)` alone, and checks visibility on those
    /// only: the newest `limit` visible posts are among them whenever they hold `limit` visible ones. Without
    /// it, every post of everyone followed is checked and sorted, a cost that grows with all their history.
    ///
    /// The candidates themselves are found by reading every post of everyone followed in that index, since
    /// SQLite cannot merge the people's newest posts and stop; `floor` bounds that read to recent posts
    /// (without it, the heaviest followers of the benchmark's community read a whole year's posts).
    ///
    /// With `walk`, the candidates are found the other way round, for someone who follows many people: the
    /// community's newest posts from `floor` on, newest first, each kept when its author is followed (a
    /// primary-key probe into `follows`), until there are `candidates`.
    private func feedQuery(
        _ query: FeedQuery, viewer: UserID?, candidates: Int?, floor: String? = nil, walk: Bool = false
    ) async throws -> [Post] {
        var arguments: StatementArguments = ["viewer": viewer?.description, "limit": query.limit]
        // A group's own feed lists its posts for whoever may read them; every other list, a group post for its
        // members only (`VisibilityPolicy.isListed`).
        let groupFeed = if case .group = query.source { true } else { false }
        var clauses = [groupFeed ? SQLitePostSQL.visible : SQLitePostSQL.listed]
        var order = "DESC"
        var cursor: String?
        if let after = query.after {
            cursor = "> :after"
            order = "ASC"
            _ = arguments.append(contentsOf: ["after": after.description])
        } else if let before = query.before {
            cursor = "< :before"
            _ = arguments.append(contentsOf: ["before": before.description])
        }
        switch query.source {
        case .following:
            let authors = """
                SELECT followee_id FROM follows WHERE follower_id = :viewer AND state = 'accepted'
                UNION ALL SELECT :viewer
                """
            if let candidates, walk {
                clauses.append(
                    """
                    p.id IN (SELECT c.id FROM posts c
                             WHERE c.deleted_at IS NULL AND c.id >= :floor \(cursor.map { "AND c.id \($0)" } ?? "")
                               AND (c.author_id = :viewer
                                    OR EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = :viewer
                                               AND f.followee_id = c.author_id AND f.state = 'accepted'))
                             ORDER BY c.id \(order) LIMIT :candidates)
                    """)
                _ = arguments.append(contentsOf: ["candidates": candidates, "floor": floor])
            } else if let candidates {
                // INDEXED BY: the planner otherwise takes posts_by_author_text, which isn't covering.
                clauses.append(
                    """
                    p.id IN (SELECT c.id FROM posts c INDEXED BY posts_by_author
                             WHERE c.deleted_at IS NULL AND c.author_id IN (\(authors))
                             \(cursor.map { "AND c.id \($0)" } ?? "") \(floor == nil ? "" : "AND c.id >= :floor")
                             ORDER BY c.id \(order) LIMIT :candidates)
                    """)
                _ = arguments.append(contentsOf: ["candidates": candidates])
                if let floor { _ = arguments.append(contentsOf: ["floor": floor]) }
            } else {
                clauses.append("p.author_id IN (\(authors))")
            }
            clauses.append(SQLitePostSQL.notMuted)
        case .community:
            clauses.append("p.visibility = 'public'")
            clauses.append(SQLitePostSQL.notMuted)
        case .global:
            clauses.append("p.in_global = 1 AND p.visibility = 'public'")
            clauses.append(SQLitePostSQL.notMuted)
        case .tag(let tag):
            clauses.append("p.id IN (SELECT post_id FROM post_tags WHERE tag = :tag)")
            clauses.append(SQLitePostSQL.notMuted)
            clauses.append(SQLitePostSQL.namesNoChild)
            _ = arguments.append(contentsOf: ["tag": tag])
        case .author(let author):
            clauses.append("p.author_id = :author")
            _ = arguments.append(contentsOf: ["author": author.description])
        case .group(let group):
            clauses.append("p.group_id = :group")
            _ = arguments.append(contentsOf: ["group": group.description])
        }
        if let cursor { clauses.append("p.id \(cursor)") }
        let sql = """
            SELECT \(SQLitePostSQL.columns) FROM posts p JOIN users u ON u.id = p.author_id
            WHERE \(clauses.joined(separator: "\nAND "))
            ORDER BY p.id \(order) LIMIT :limit
            """
        return try await hydrate(sql: sql, arguments: arguments, viewer: viewer)
    }

    func post(_ id: PostID, viewer: UserID?) async throws -> Post? {
        try await hydrate(
            sql: PostStoreSQL.post.sqlite, arguments: ["id": id.description, "viewer": viewer?.description],
            viewer: viewer
        )
        .first
    }

    func kudosTarget(_ id: PostID, viewer: UserID) async throws -> KudosTarget? {
        // One statement: no transaction needed around it (see `SQLiteTokenStore.findWithAccount`).
        try await database.lookup { db in
            try db.firstRow(
                cached: PostStoreSQL.kudosTarget.sqlite,
                arguments: ["id": id.description, "viewer": viewer.description]
            ) { row in UserID(row.text(0) as String).map { KudosTarget(author: $0, kudosCount: row.integer(1)) } }
                ?? nil
        }
    }

    func kudosGivers(of post: PostID) async throws -> Set<UserID> {
        let ids = try await database.read { db in
            try String.fetchAll(
                cached: db, sql: PostStoreSQL.kudosGivers.sqlite, arguments: ["post": post.description])
        }
        return Set(ids.compactMap(UserID.init))
    }

    /// Pages and windows run one statement each, their absent bounds NULL.
    private static let workoutHistory = SQLStatement(
        PostStoreSQL.workoutHistory(
            window: " AND (\(bind: "since") IS NULL OR p.performed_at >= \(bind: "since"))"))
    private static let kudosGiversPage = SQLStatement(
        PostStoreSQL.kudosGiversPage(after: " AND (\(bind: "after") IS NULL OR users.id > \(bind: "after"))"))
    private static let newerInGroup = SQLStatement(
        PostStoreSQL.countNewer(after: " AND (\(bind: "after") IS NULL OR p.id > \(bind: "after"))"))

    func kudosGivers(of post: PostID, viewer: UserID?, after: UserID?, limit: Int) async throws -> [AccountRecord] {
        let sql = Self.kudosGiversPage.sqlite
        let arguments: StatementArguments = [
            "post": post.description, "after": after?.description, "viewer": viewer?.description, "limit": limit,
        ]
        return try await database.read { db in
            try Row.fetchAll(cached: db, sql: sql, arguments: arguments).compactMap(SQLiteAccountStore.record)
        }
    }

    func rankingCandidates(viewer: UserID?, since: Date, limit: Int) async throws -> [RankingCandidate] {
        let found = try await hydrate(
            sql: PostStoreSQL.rankingCandidates.sqlite,
            arguments: ["since": since.sqliteValue, "viewer": viewer?.description, "limit": limit],
            viewer: viewer
        ) { row in
            let extra = SQLitePostSQL.Column.allCases.count  // the columns after the standard ones
            return (performedAt: Date(sqliteValue: row[extra]), authorFeatured: row[extra + 1] as Bool)
        }
        return zip(found.posts, found.extras).map {
            RankingCandidate(post: $0, performedAt: $1.performedAt, authorFeatured: $1.authorFeatured)
        }
    }

    func groupRankingCandidates(
        in group: GroupID, viewer: UserID?, since: Date, limit: Int
    ) async throws -> [GroupRankingCandidate] {
        // The window by id (ids are time-ordered), so the read walks `posts_by_group` only.
        let sql = PostStoreSQL.groupRankingCandidates.sqlite
        let arguments: StatementArguments = [
            "group": group.description, "floor": UUIDText.format(UUIDv7.lowest(at: since)),
            "viewer": viewer?.description, "limit": limit,
        ]
        return try await database.read { db in
            try Row.fetchAll(cached: db, sql: sql, arguments: arguments).compactMap { row in
                guard let id = PostID(row[0] as String), let author = UserID(row[1] as String) else { return nil }
                return GroupRankingCandidate(
                    id: id, author: author, performedAt: Date(sqliteValue: row[2]), memberKudos: row[3],
                    memberComments: row[4])
            }
        }
    }

    func posts(_ ids: [PostID], viewer: UserID?) async throws -> [Post] {
        guard !ids.isEmpty else { return [] }
        return try await hydrate(
            sql: PostStoreSQL.posts.sqlite, arguments: ["ids": SQLiteIDList.json(ids), "viewer": viewer?.description],
            viewer: viewer)
    }

    func countNewer(in group: GroupID, after: PostID?, viewer: UserID, cap: Int) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(
                cached: db,
                sql: Self.newerInGroup.sqlite,
                arguments: [
                    "group": group.description, "after": after?.description, "viewer": viewer.description, "cap": cap,
                ]
            ) ?? 0
        }
    }

    /// Runs a post query and adds each post's first kudos givers in one more query.
    func hydrate(sql: String, arguments: StatementArguments, viewer: UserID?) async throws -> [Post] {
        try await hydrate(sql: sql, arguments: arguments, viewer: viewer) { _ in () }.posts
    }

    /// Like `hydrate`, with `extra` reading what the query selects after the standard columns. Rows are read
    /// inside the database read: GRDB's rows aren't `Sendable`, and returning them would pick its blocking
    /// `read` overload, which holds a cooperative thread for the whole query. The kudos previews come in the
    /// same read: each read is a round trip to GRDB's queue, and a kudos request makes few others.
    /// The posts and the extras come back side by side: pairing them, then splitting the pairs to add the
    /// previews, copied every post three times, and each copy retains and releases all of a `Post`'s
    /// references.
    func hydrate<Extra: Sendable>(
        sql: String, arguments: StatementArguments, viewer: UserID?, extra: @escaping @Sendable (Row) -> Extra
    ) async throws -> (posts: [Post], extras: [Extra]) {
        try await database.read { db in
            // A cursor's rows are read in place; `fetchAll` would copy every row before it is read once.
            var posts: [Post] = []
            var extras: [Extra] = []
            let cursor = try Row.fetchCursor(try db.cachedStatement(sql: sql), arguments: arguments)
            while let row = try cursor.next() {
                guard let post = Self.post(from: row) else { continue }
                posts.append(post)
                extras.append(extra(row))
            }
            try Self.addKudosPreviews(to: &posts, viewer: viewer, db)
            return (posts, extras)
        }
    }

    private static func addKudosPreviews(to posts: inout [Post], viewer: UserID?, _ db: Database) throws {
        guard !posts.isEmpty else { return }
        // The first three givers of each post, read from the front of kudos_in_order: a post's cost stays
        // the same however many kudos it has (ranking all of them made every kudos of a popular post dearer
        // the more it had). Givers are checked against the page's one set of `unlisted` people, not looked up
        // and probed for blocks one by one, so a page of much-kudosed posts stays cheap.
        let previewSQL = """
            SELECT j.value, u.id, u.username, u.display_name, u.avatar_url
            FROM json_each(:ids) j
            JOIN kudos k ON k.rowid IN (
              SELECT f.rowid FROM kudos f
              WHERE f.post_id = j.value AND f.user_id NOT IN (\(SQLitePostSQL.unlisted))
              ORDER BY f.created_at, f.user_id LIMIT 3)
            JOIN users u ON u.id = k.user_id
            ORDER BY j.value, k.created_at, k.user_id
            """
        var preview: [String: [AuthorSummary]] = [:]
        for row in try Row.fetchAll(
            cached: db, sql: previewSQL,
            arguments: ["ids": SQLiteIDList.json(posts.map(\.id)), "viewer": viewer?.description])
        {
            guard let id = UserID(row[1] as String) else { continue }
            preview[row[0], default: []].append(
                AuthorSummary(id: id, username: row[2], displayName: row[3], avatarURL: row[4]))
        }
        for index in posts.indices { posts[index].kudosPreview = preview[posts[index].id.description] ?? [] }
    }

    static func post(from row: Row) -> Post? {
        typealias Column = SQLitePostSQL.Column
        guard let id = PostID(row[Column.id.index] as String), let kind = PostKind(rawValue: row[Column.kind.index]),
            let visibility = Visibility(rawValue: row[Column.visibility.index]),
            let authorID = UserID(row[Column.authorID.index] as String)
        else { return nil }
        let group = (row[Column.groupID.index] as String?).flatMap(GroupID.init).map {
            GroupSummary(id: $0, name: row[Column.groupName.index] ?? "")
        }
        return Post(
            id: id, kind: kind,
            author: AuthorSummary(
                id: authorID, username: row[Column.username.index], displayName: row[Column.displayName.index],
                avatarURL: row[Column.avatarURL.index]),
            text: row[Column.text.index], visibility: group == nil ? visibility : .group,
            workout: StoredJSON.decodeRemembered(WorkoutRecord.self, from: row[Column.workout.index]),
            hashtags: StoredJSON.decodeRemembered([String].self, from: row[Column.hashtags.index]) ?? [],
            mentions: StoredJSON.decode([String].self, from: row[Column.mentions.index]) ?? [],
            personalRecords: StoredJSON.decode([PersonalRecord].self, from: row[Column.records.index]) ?? [],
            createdAt: Date(sqliteValue: row[Column.createdAt.index]),
            editedAt: (row[Column.editedAt.index] as Double?).map(Date.init(sqliteValue:)),
            kudosCount: row[Column.kudosCount.index], commentsCount: row[Column.commentsCount.index],
            kudosPreview: [], kudosedByMe: row[Column.kudosedByMe.index],
            media: StoredMedia.decode(row[Column.media.index]), group: group,
            children: StoredJSON.decode([ChildSummary].self, from: row[Column.children.index]) ?? [],
            sealed: StoredJSON.decode(SealedContent.self, from: row[Column.sealed.index]))
    }

    func workoutHistory(of author: UserID, viewer: UserID?, since: Date?) async throws -> [WorkoutHistoryEntry] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: Self.workoutHistory.sqlite,
                arguments: ["author": author.description, "viewer": viewer?.description, "since": since?.sqliteValue]
            ).compactMap { row in
                WorkoutHistoryEntry(
                    performedAt: Date(sqliteValue: row[0]), storedWorkout: row[1], storedRecords: row[2])
            }
        }
    }

    func ownWorkoutHistories(of authors: [UserID], since: Date) async throws -> [UserID: [WorkoutHistoryEntry]] {
        guard !authors.isEmpty else { return [:] }
        // The authors travel as one JSON array (`PostStoreSQL.ownWorkouts`).
        let list = SQLiteIDList.json(authors)
        return try await database.read { db in
            var histories: [UserID: [WorkoutHistoryEntry]] = [:]
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: PostStoreSQL.ownWorkouts.sqlite),
                arguments: ["since": since.sqliteValue, "authors": list])
            while let row = try rows.next() {
                guard let author = UserID(row[0] as String),
                    let entry = WorkoutHistoryEntry(
                        performedAt: Date(sqliteValue: row[1]), storedWorkout: row[2], storedRecords: row[3])
                else { continue }
                histories[author, default: []].append(entry)
            }
            return histories
        }
    }

    func recentTrainers(since: Date) async throws -> [RecentTrainer] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: PostStoreSQL.recentTrainers.sqlite,
                arguments: ["since": since.sqliteValue]
            ).compactMap { row in UserID(row[0] as String).map { RecentTrainer(id: $0, timeZone: row[1]) } }
        }
    }

    func countVisiblePosts(by author: UserID, viewer: UserID?) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(
                cached: db, sql: SQLitePostSQL.visiblePostsCount,
                arguments: ["author": author.description, "viewer": viewer?.description]) ?? 0
        }
    }

    func countPosts(by author: UserID, since: Date) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(
                cached: db, sql: PostStoreSQL.countPosts.sqlite,
                arguments: ["author": author.description, "since": since.sqliteValue]) ?? 0
        }
    }

    func postTimes(by author: UserID, since: Date) async throws -> [Date] {
        try await database.read { db in
            try Double.fetchAll(
                cached: db,
                sql: PostStoreSQL.postTimes.sqlite,
                arguments: ["author": author.description, "since": since.sqliteValue]
            ).map(Date.init(sqliteValue:))
        }
    }

    func hasPost(by author: UserID, textHash: String, since: Date) async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(
                cached: db,
                sql: PostStoreSQL.hasPost.sqlite,
                arguments: ["author": author.description, "textHash": textHash, "since": since.sqliteValue]) ?? false
        }
    }

    func addKudos(_ post: PostID, by user: UserID, at date: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: "INSERT INTO kudos (post_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [post.description, user.description, date.sqliteValue])
            return db.changesCount > 0
        }
    }

    func removeKudos(_ post: PostID, by user: UserID) async throws -> Bool {
        try await database.write { db in
            try Row.fetchOne(
                cached: db, sql: PostStoreSQL.removeKudos.sqlite,
                arguments: ["post": post.description, "user": user.description]) != nil
        }
    }

    func insertComment(_ comment: CommentRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: PostStoreSQL.insertComment.sqlite,
                arguments: [
                    "id": comment.id.description, "post": comment.postID.description,
                    "parent": comment.parentID?.description, "author": comment.authorID.description,
                    "text": comment.text, "createdAt": comment.createdAt.sqliteValue,
                ])
            // Sealed text in its own statement, only in an encrypted group (as a post's group and photos).
            if let sealed = comment.sealed {
                try db.execute(
                    cached: PostStoreSQL.sealComment.sqlite,
                    arguments: ["sealed": StoredJSON.encode(sealed), "id": comment.id.description])
            }
        }
    }

    func comment(_ id: CommentID) async throws -> CommentRecord? {
        try await database.read { db in
            try Row.fetchOne(
                cached: db,
                sql: PostStoreSQL.comment.sqlite,
                arguments: ["id": id.description]
            ).flatMap { row in
                guard let id = CommentID(row[0] as String), let post = PostID(row[1] as String),
                    let author = UserID(row[3] as String)
                else { return nil }
                return CommentRecord(
                    id: id, postID: post, parentID: (row[2] as String?).flatMap(CommentID.init), authorID: author,
                    text: row[4], createdAt: Date(sqliteValue: row[5]),
                    editedAt: (row[6] as Double?).map(Date.init(sqliteValue:)),
                    deletedAt: (row[7] as Double?).map(Date.init(sqliteValue:)))
            }
        }
    }

    func tombstoneComment(_ id: CommentID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: PostStoreSQL.tombstoneComment.sqlite, arguments: ["at": date.sqliteValue, "id": id.description])
        }
    }

    func editComment(_ id: CommentID, text: String, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: PostStoreSQL.editComment.sqlite,
                arguments: ["text": text, "at": date.sqliteValue, "id": id.description])
        }
    }

    func comments(on post: PostID, viewer: UserID?, after: CommentID?, limit: Int) async throws -> [Comment] {
        try await database.read { db in
            let rows = try Row.fetchAll(
                cached: db,
                sql: Self.commentsSQL,
                arguments: [
                    "post": post.description, "viewer": viewer?.description, "after": after?.description,
                    "limit": limit,
                ])
            return rows.compactMap { row in
                guard let id = CommentID(row[0] as String), let postID = PostID(row[1] as String),
                    let authorID = UserID(row[5] as String)
                else { return nil }
                return Comment(
                    id: id, postID: postID, parentID: (row[2] as String?).flatMap(CommentID.init),
                    author: AuthorSummary(id: authorID, username: row[6], displayName: row[7], avatarURL: row[8]),
                    text: row[3], createdAt: Date(sqliteValue: row[4]),
                    editedAt: (row[9] as Double?).map(Date.init(sqliteValue:)),
                    sealed: StoredJSON.decode(SealedContent.self, from: row[10]))
            }
        }
    }

    /// The comments' page past `:after`, when there is one.
    private static let commentsSQL = PostStoreSQL.comments(
        cursor: "AND (\(bind: "after") IS NULL OR c.id > \(bind: "after"))"
    ).rendered(.sqlite).text

    func personalBests(of user: UserID) async throws -> [String: ExerciseBests] {
        // On the writer: a workout's new bests are computed from these and written in the same unit.
        try await database.readOnWriter { db in
            var bests: [String: ExerciseBests] = [:]
            for row in try Row.fetchAll(
                cached: db, sql: PostStoreSQL.personalBests.sqlite, arguments: ["user": user.description])
            {
                if let value = StoredJSON.decode(ExerciseBests.self, from: row[1]) { bests[row[0]] = value }
            }
            return bests
        }
    }

    func savePersonalBests(_ bests: [String: ExerciseBests], of user: UserID) async throws {
        try await database.write { db in
            for (key, value) in bests {
                try db.execute(
                    cached: PostStoreSQL.savePersonalBests.sqlite,
                    arguments: ["user": user.description, "key": key, "bests": StoredJSON.encode(value)])
            }
        }
    }
}
