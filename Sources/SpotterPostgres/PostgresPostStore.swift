import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

struct PostgresPostStore: PostStore {
    let database: PostgresDatabase
    let logger: Logger

    func insert(_ post: PostRecord) async throws {
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                PostgresQuery(
                    PostStoreSQL.insert.postgres,
                    Self.contentBinds(post).merging([
                        "author": PostgresBind(post.authorID.rawValue), "kind": PostgresBind(post.kind.rawValue),
                        "createdAt": PostgresBind(post.createdAt),
                    ]) { $1 }), logger: logger)
            // The group in its own statement, only for a group post (see the SQLite twin).
            if let group = post.groupID {
                try await connection.query(
                    PostgresQuery(
                        PostStoreSQL.setGroup.postgres,
                        ["group": PostgresBind(group.rawValue), "id": PostgresBind(post.id.rawValue)]),
                    logger: logger)
            }
            // Photos in their own statement, only when there are some: the column's default is no photos.
            if !post.media.isEmpty {
                try await connection.query(
                    PostgresQuery(
                        PostStoreSQL.setMedia.postgres,
                        ["media": PostgresBind(StoredMedia.encode(post.media)), "id": PostgresBind(post.id.rawValue)]),
                    logger: logger)
            }
            // Sealed content likewise, only in an encrypted group.
            if let sealed = post.sealed {
                try await connection.query(
                    PostgresQuery(
                        PostStoreSQL.setSealed.postgres,
                        ["sealed": PostgresBind(StoredJSON.encode(sealed)), "id": PostgresBind(post.id.rawValue)]),
                    logger: logger)
            }
            try await Self.writeTags(post, connection, logger)
        }
    }

    func update(_ post: PostRecord) async throws {
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                PostgresQuery(
                    PostStoreSQL.update.postgres,
                    Self.contentBinds(post).merging([
                        "editedAt": PostgresBind(post.editedAt), "media": PostgresBind(StoredMedia.encode(post.media)),
                    ]) { $1 }), logger: logger)
            try await connection.query(
                PostgresQuery(PostStoreSQL.deleteTags.postgres, ["id": PostgresBind(post.id.rawValue)]),
                logger: logger)
            try await Self.writeTags(post, connection, logger)
        }
    }

    /// The binds a post's insert and its update share: its id and what an edit may change.
    private static func contentBinds(_ post: PostRecord) -> [String: PostgresBind] {
        [
            "id": PostgresBind(post.id.rawValue), "text": PostgresBind(post.text),
            "visibility": PostgresBind(post.storedVisibility),
            "workout": PostgresBind(post.workout.map(StoredJSON.encode)),
            "records": PostgresBind(StoredJSON.encode(post.records)),
            "hashtags": PostgresBind(StoredJSON.encode(post.hashtags)),
            "mentions": PostgresBind(StoredJSON.encode(post.mentions)),
            "template": PostgresBind(post.workout?.templateID?.rawValue), "textHash": PostgresBind(post.textHash),
            "inGlobal": PostgresBind(post.inGlobal), "performedAt": PostgresBind(post.performedAt),
        ]
    }

    private static func writeTags(_ post: PostRecord, _ connection: PostgresSession, _ logger: Logger) async throws {
        guard !post.hashtags.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO post_tags (tag, post_id) SELECT unnest(\(post.hashtags)::text[]), \(post.id.rawValue)
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    func tombstone(_ id: PostID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                PostStoreSQL.tombstone.postgres, ["at": PostgresBind(date), "id": PostgresBind(id.rawValue)]),
            logger: logger)
    }

    func record(_ id: PostID) async throws -> PostRecord? {
        let rows = try await database.query(
            PostgresQuery(PostStoreSQL.record.postgres, ["id": PostgresBind(id.rawValue)]), logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            guard let kind = PostKind(rawValue: try r[2].decode(String.self)),
                let visibility = Visibility(rawValue: try r[4].decode(String.self))
            else { return nil }
            let group = try r[16].decode(UUID?.self).map(GroupID.init(rawValue:))
            return PostRecord(
                id: PostID(rawValue: try r[0].decode(UUID.self)),
                authorID: UserID(rawValue: try r[1].decode(UUID.self)),
                kind: kind, text: try r[3].decode(String.self), visibility: group == nil ? visibility : .group,
                workout: StoredJSON.decodeRemembered(WorkoutRecord.self, from: try r[5].decode(String?.self)),
                records: StoredJSON.decode([PersonalRecord].self, from: try r[6].decode(String.self)) ?? [],
                hashtags: StoredJSON.decode([String].self, from: try r[7].decode(String.self)) ?? [],
                mentions: StoredJSON.decode([String].self, from: try r[8].decode(String.self)) ?? [],
                textHash: try r[9].decode(String.self), inGlobal: try r[10].decode(Bool.self),
                performedAt: try r[11].decode(Date.self), createdAt: try r[12].decode(Date.self),
                editedAt: try r[13].decode(Date?.self), deletedAt: try r[14].decode(Date?.self),
                media: StoredMedia.decode(try r[15].decode(String.self)), groupID: group)
        }
        return nil
    }

    func feed(_ query: FeedQuery, viewer: UserID?) async throws -> [Post] {
        let posts: [Post]
        switch query.source {
        case .following:
            // Nobody signed in follows nobody.
            guard let viewer else { return [] }
            return try await followingPage(query, viewer: viewer)
        case .community: posts = try await pageRows(CommunityFeedShape.self, value: nil, query, viewer: viewer)
        case .global: posts = try await pageRows(GlobalFeedShape.self, value: nil, query, viewer: viewer)
        case .tag(let tag): posts = try await pageRows(TagFeedShape.self, value: tag, query, viewer: viewer)
        case .author(let author):
            posts = try await pageRows(AuthorFeedShape.self, value: author.rawValue, query, viewer: viewer)
        case .group(let group):
            posts = try await pageRows(GroupFeedShape.self, value: group.rawValue, query, viewer: viewer)
        }
        return try await withKudosPreview(posts, viewer: viewer)
    }

    /// One page's posts from `Source`, without their kudos previews. With no cursor, `ascending` reads
    /// oldest first (given posts already lie past a cursor).
    func pageRows<Source: FeedSourceShape>(
        _ source: Source.Type, value: (any PostgresThrowingDynamicTypeEncodable & Sendable)?, _ query: FeedQuery,
        viewer: UserID?, ascending: Bool = false
    ) async throws -> [Post] {
        try await pageRows(
            source, feedRows(for: query.limit, planFitsAll: Source.planFitsAll), value: value, query, viewer: viewer,
            ascending: ascending)
    }

    private func pageRows<Source: FeedSourceShape, Rows: FeedRowsShape>(
        _: Source.Type, _: Rows.Type, value: (any PostgresThrowingDynamicTypeEncodable & Sendable)?,
        _ query: FeedQuery, viewer: UserID?, ascending: Bool
    ) async throws -> [Post] {
        if let after = query.after {
            return try await rows(
                FeedPageStatement<Source, AfterCursorShape, Rows>(
                    viewer: viewer?.rawValue, sourceValue: value, cursor: after.rawValue, limit: query.limit))
        }
        if let before = query.before {
            return try await rows(
                FeedPageStatement<Source, BeforeCursorShape, Rows>(
                    viewer: viewer?.rawValue, sourceValue: value, cursor: before.rawValue, limit: query.limit))
        }
        if ascending {
            return try await rows(
                FeedPageStatement<Source, OldestFirstShape, Rows>(
                    viewer: viewer?.rawValue, sourceValue: value, cursor: nil, limit: query.limit))
        }
        return try await rows(
            FeedPageStatement<Source, FirstPageShape, Rows>(
                viewer: viewer?.rawValue, sourceValue: value, cursor: nil, limit: query.limit))
    }

    /// Runs a page statement and keeps its first `limit` rows (a literal LIMIT may return more).
    private func rows<Source, Cursor, Rows>(
        _ statement: FeedPageStatement<Source, Cursor, Rows>
    ) async throws
        -> [Post]
    {
        var posts: [Post] = []
        for row in try await database.execute(statement, logger: logger) where posts.count < statement.limit {
            if let post = try Self.post(from: row) { posts.append(post) }
        }
        return posts
    }

    func kudosTarget(_ id: PostID, viewer: UserID) async throws -> KudosTarget? {
        let query = try PostgresQuery(
            PostStoreSQL.kudosTarget.postgres,
            ["viewer": PostgresBind(viewer.rawValue), "id": PostgresBind(id.rawValue)])
        for try await (author, count) in try await database.query(query, logger: logger).decode((UUID, Int).self) {
            return KudosTarget(author: UserID(rawValue: author), kudosCount: count)
        }
        return nil
    }

    func post(_ id: PostID, viewer: UserID?) async throws -> Post? {
        let query = try PostgresQuery(
            PostStoreSQL.post.postgres, ["viewer": PostgresBind(viewer?.rawValue), "id": PostgresBind(id.rawValue)])
        return try await hydrate(query, viewer: viewer).first
    }

    func kudosGivers(of post: PostID) async throws -> Set<UserID> {
        let rows = try await database.query(
            PostgresQuery(PostStoreSQL.kudosGivers.postgres, ["post": PostgresBind(post.rawValue)]), logger: logger)
        var givers: Set<UserID> = []
        for try await id in rows.decode(UUID.self) { givers.insert(UserID(rawValue: id)) }
        return givers
    }

    func kudosGivers(of post: PostID, viewer: UserID?, after: UserID?, limit: Int) async throws -> [AccountRecord] {
        // Only a bound it has, so each shape keeps its own plan.
        var binds = [
            SQLText.viewer: PostgresBind(viewer?.rawValue), "post": PostgresBind(post.rawValue),
            "limit": PostgresBind(limit),
        ]
        var bound: SQLText = ""
        if let after {
            bound = " AND users.id > \(bind: "after")"
            binds["after"] = PostgresBind(after.rawValue)
        }
        let query = try PostgresQuery(PostStoreSQL.kudosGiversPage(after: bound).rendered(.postgres), binds)
        var accounts: [AccountRecord] = []
        for try await row in try await database.query(query, logger: logger) {
            accounts.append(try PostgresAccountStore.record(row.makeRandomAccess(), offset: 0))
        }
        return accounts
    }

    func rankingCandidates(viewer: UserID?, since: Date, limit: Int) async throws -> [RankingCandidate] {
        let query = try PostgresQuery(
            PostStoreSQL.rankingCandidates.postgres,
            ["viewer": PostgresBind(viewer?.rawValue), "since": PostgresBind(since), "limit": PostgresBind(limit)])
        var extras: [PostID: (Date, Bool)] = [:]
        let posts = try await hydrate(query, viewer: viewer) { row, post in
            extras[post.id] = (
                try row.cell(named: "performed_at").decode(Date.self),
                try row.cell(named: "author_featured").decode(Bool.self)
            )
        }
        return posts.compactMap { post in
            extras[post.id].map { RankingCandidate(post: post, performedAt: $0.0, authorFeatured: $0.1) }
        }
    }

    func groupRankingCandidates(
        in group: GroupID, viewer: UserID?, since: Date, limit: Int
    ) async throws -> [GroupRankingCandidate] {
        let query = try PostgresQuery(
            PostStoreSQL.groupRankingCandidates.postgres,
            [
                "viewer": PostgresBind(viewer?.rawValue), "group": PostgresBind(group.rawValue),
                "floor": PostgresBind(UUIDv7.lowest(at: since)), "limit": PostgresBind(limit),
            ])
        var candidates: [GroupRankingCandidate] = []
        for try await (id, author, performedAt, kudos, comments) in try await database.query(query, logger: logger)
            .decode((UUID, UUID, Date, Int, Int).self)
        {
            candidates.append(
                GroupRankingCandidate(
                    id: PostID(rawValue: id), author: UserID(rawValue: author), performedAt: performedAt,
                    memberKudos: kudos, memberComments: comments))
        }
        return candidates
    }

    func posts(_ ids: [PostID], viewer: UserID?) async throws -> [Post] {
        guard !ids.isEmpty else { return [] }
        let query = try PostgresQuery(
            PostStoreSQL.posts.postgres,
            [SQLText.viewer: PostgresBind(viewer?.rawValue), "ids": PostgresBind(ids.map(\.rawValue))])
        return try await hydrate(query, viewer: viewer)
    }

    func countNewer(in group: GroupID, after: PostID?, viewer: UserID, cap: Int) async throws -> Int {
        var binds = [
            SQLText.viewer: PostgresBind(viewer.rawValue), "group": PostgresBind(group.rawValue),
            "cap": PostgresBind(cap),
        ]
        var bound: SQLText = ""
        if let after {
            bound = " AND p.id > \(bind: "after")"
            binds["after"] = PostgresBind(after.rawValue)
        }
        let query = try PostgresQuery(PostStoreSQL.countNewer(after: bound).rendered(.postgres), binds)
        for try await count in try await database.query(query, logger: logger).decode(Int.self) {
            return count
        }
        return 0
    }

    /// Runs a post query and adds each post's first kudos givers in one more query. `inspect` sees each row
    /// with its post, for queries that select extra columns after the standard ones.
    func hydrate(
        _ query: PostgresQuery, viewer: UserID?,
        inspect: (PostgresRandomAccessRow, Post) throws -> Void = { _, _ in }
    ) async throws -> [Post] {
        var posts: [Post] = []
        for try await row in try await database.query(query, logger: logger) {
            let access = row.makeRandomAccess()
            if let post = try Self.post(from: access) {
                try inspect(access, post)
                posts.append(post)
            }
        }
        return try await withKudosPreview(posts, viewer: viewer)
    }

    /// Adds each post's first kudos givers, in one more query. `consuming`, so that the page's array is
    /// changed in place rather than copied with every post in it (as SQLite's `hydrate` found).
    func withKudosPreview(_ posts: consuming [Post], viewer: UserID?) async throws -> [Post] {
        guard !posts.isEmpty else { return posts }
        var preview: [UUID: [AuthorSummary]] = [:]
        for (postID, userID, username, displayName, avatar) in try await database.execute(
            KudosPreviewStatement(viewer: viewer?.rawValue, posts: posts.map(\.id.rawValue)), logger: logger)
        {
            preview[postID, default: []].append(
                AuthorSummary(
                    id: UserID(rawValue: userID), username: username, displayName: displayName, avatarURL: avatar))
        }
        for index in posts.indices { posts[index].kudosPreview = preview[posts[index].id.rawValue] ?? [] }
        return posts
    }

    /// A post from a row that selects `PostgresPostSQL.columns`, read by column name, so a select list in
    /// another order cannot shift one field into another.
    static func post(from r: PostgresRandomAccessRow) throws -> Post? {
        func cell(_ column: PostColumn) throws -> PostgresCell { try r.cell(named: column.name) }
        guard let kind = PostKind(rawValue: try cell(.kind).decode(String.self)),
            let visibility = Visibility(rawValue: try cell(.visibility).decode(String.self))
        else { return nil }
        let group = try cell(.groupID).decode(UUID?.self).map {
            GroupSummary(id: GroupID(rawValue: $0), name: try cell(.groupName).decode(String?.self) ?? "")
        }
        return Post(
            id: PostID(rawValue: try cell(.id).decode(UUID.self)), kind: kind,
            author: AuthorSummary(
                id: UserID(rawValue: try cell(.authorID).decode(UUID.self)),
                username: try cell(.username).decode(String.self),
                displayName: try cell(.displayName).decode(String.self),
                avatarURL: try cell(.avatarURL).decode(String?.self)),
            text: try cell(.text).decode(String.self), visibility: group == nil ? visibility : .group,
            workout: StoredJSON.decodeRemembered(WorkoutRecord.self, from: try cell(.workout).decode(String?.self)),
            hashtags: StoredJSON.decodeRemembered([String].self, from: try cell(.hashtags).decode(String.self)) ?? [],
            mentions: StoredJSON.decode([String].self, from: try cell(.mentions).decode(String.self)) ?? [],
            personalRecords: StoredJSON.decode([PersonalRecord].self, from: try cell(.records).decode(String.self))
                ?? [],
            createdAt: try cell(.createdAt).decode(Date.self), editedAt: try cell(.editedAt).decode(Date?.self),
            kudosCount: try cell(.kudosCount).decode(Int.self),
            commentsCount: try cell(.commentsCount).decode(Int.self), kudosPreview: [],
            kudosedByMe: try cell(.kudosedByMe).decode(Bool.self),
            media: StoredMedia.decode(try cell(.media).decode(String.self)), group: group,
            children: StoredJSON.decode([ChildSummary].self, from: try cell(.children).decode(String?.self)) ?? [],
            sealed: StoredJSON.decode(SealedContent.self, from: try cell(.sealed).decode(String?.self)))
    }

    func workoutHistory(of author: UserID, viewer: UserID?, since: Date?) async throws -> [WorkoutHistoryEntry] {
        // Only a window it has, so each shape keeps its own plan.
        var binds = [SQLText.viewer: PostgresBind(viewer?.rawValue), "author": PostgresBind(author.rawValue)]
        var window: SQLText = ""
        if let since {
            window = " AND p.performed_at >= \(bind: "since")"
            binds["since"] = PostgresBind(since)
        }
        let query = try PostgresQuery(PostStoreSQL.workoutHistory(window: window).rendered(.postgres), binds)
        var history: [WorkoutHistoryEntry] = []
        for try await (performedAt, workoutJSON, recordsJSON) in try await database.query(query, logger: logger)
            .decode((Date, String?, String).self)
        {
            if let entry = WorkoutHistoryEntry(
                performedAt: performedAt, storedWorkout: workoutJSON, storedRecords: recordsJSON)
            {
                history.append(entry)
            }
        }
        return history
    }

    func ownWorkoutHistories(of authors: [UserID], since: Date) async throws -> [UserID: [WorkoutHistoryEntry]] {
        guard !authors.isEmpty else { return [:] }
        var histories: [UserID: [WorkoutHistoryEntry]] = [:]
        for try await (author, performedAt, workoutJSON, recordsJSON) in try await database.query(
            PostgresQuery(
                PostStoreSQL.ownWorkouts.postgres,
                ["since": PostgresBind(since), "authors": PostgresBind(authors.map(\.rawValue))]),
            logger: logger
        ).decode((UUID, Date, String?, String).self) {
            if let entry = WorkoutHistoryEntry(
                performedAt: performedAt, storedWorkout: workoutJSON, storedRecords: recordsJSON)
            {
                histories[UserID(rawValue: author), default: []].append(entry)
            }
        }
        return histories
    }

    func recentTrainers(since: Date) async throws -> [RecentTrainer] {
        var trainers: [RecentTrainer] = []
        for try await (id, timeZone) in try await database.query(
            PostgresQuery(PostStoreSQL.recentTrainers.postgres, ["since": PostgresBind(since)]), logger: logger
        ).decode((UUID, String).self) {
            trainers.append(RecentTrainer(id: UserID(rawValue: id), timeZone: timeZone))
        }
        return trainers
    }

    func countVisiblePosts(by author: UserID, viewer: UserID?) async throws -> Int {
        let query = try PostgresQuery(
            Self.visiblePostsCount, ["viewer": PostgresBind(viewer?.rawValue), "author": PostgresBind(author.rawValue)])
        for try await count in try await database.query(query, logger: logger).decode(Int.self) {
            return count
        }
        return 0
    }

    private static let visiblePostsCount = PostSQL.visiblePostsCount.rendered(.postgres)

    func countPosts(by author: UserID, since: Date) async throws -> Int {
        let rows = try await database.query(
            PostgresQuery(
                PostStoreSQL.countPosts.postgres,
                ["author": PostgresBind(author.rawValue), "since": PostgresBind(since)]),
            logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    func postTimes(by author: UserID, since: Date) async throws -> [Date] {
        let rows = try await database.query(
            PostgresQuery(
                PostStoreSQL.postTimes.postgres,
                ["author": PostgresBind(author.rawValue), "since": PostgresBind(since)]),
            logger: logger)
        var times: [Date] = []
        for try await time in rows.decode(Date.self) { times.append(time) }
        return times
    }

    func hasPost(by author: UserID, textHash: String, since: Date) async throws -> Bool {
        let rows = try await database.query(
            PostgresQuery(
                PostStoreSQL.hasPost.postgres,
                [
                    "author": PostgresBind(author.rawValue), "textHash": PostgresBind(textHash),
                    "since": PostgresBind(since),
                ]), logger: logger)
        for try await exists in rows.decode(Bool.self) { return exists }
        return false
    }

    func addKudos(_ post: PostID, by user: UserID, at date: Date) async throws -> Bool {
        try await changed(
            """
            INSERT INTO kudos (post_id, user_id, created_at) VALUES (\(post.rawValue), \(user.rawValue), \(date))
            ON CONFLICT DO NOTHING RETURNING 1
            """)
    }

    func removeKudos(_ post: PostID, by user: UserID) async throws -> Bool {
        try await changed(
            PostgresQuery(
                PostStoreSQL.removeKudos.postgres,
                ["post": PostgresBind(post.rawValue), "user": PostgresBind(user.rawValue)]
            ))
    }

    func insertComment(_ comment: CommentRecord) async throws {
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                PostgresQuery(
                    PostStoreSQL.insertComment.postgres,
                    [
                        "id": PostgresBind(comment.id.rawValue), "post": PostgresBind(comment.postID.rawValue),
                        "parent": PostgresBind(comment.parentID?.rawValue),
                        "author": PostgresBind(comment.authorID.rawValue), "text": PostgresBind(comment.text),
                        "createdAt": PostgresBind(comment.createdAt),
                    ]), logger: logger)
            // Sealed text in its own statement, only in an encrypted group (see the SQLite twin).
            if let sealed = comment.sealed {
                try await connection.query(
                    PostgresQuery(
                        PostStoreSQL.sealComment.postgres,
                        ["sealed": PostgresBind(StoredJSON.encode(sealed)), "id": PostgresBind(comment.id.rawValue)]),
                    logger: logger)
            }
        }
    }

    func comment(_ id: CommentID) async throws -> CommentRecord? {
        let rows = try await database.query(
            PostgresQuery(PostStoreSQL.comment.postgres, ["id": PostgresBind(id.rawValue)]), logger: logger)
        for try await (id, post, parent, author, text, createdAt, editedAt, deletedAt) in rows.decode(
            (UUID, UUID, UUID?, UUID, String, Date, Date?, Date?).self)
        {
            return CommentRecord(
                id: CommentID(rawValue: id), postID: PostID(rawValue: post), parentID: parent.map(CommentID.init),
                authorID: UserID(rawValue: author), text: text, createdAt: createdAt, editedAt: editedAt,
                deletedAt: deletedAt)
        }
        return nil
    }

    func tombstoneComment(_ id: CommentID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                PostStoreSQL.tombstoneComment.postgres, ["at": PostgresBind(date), "id": PostgresBind(id.rawValue)]),
            logger: logger)
    }

    func editComment(_ id: CommentID, text: String, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                PostStoreSQL.editComment.postgres,
                ["text": PostgresBind(text), "at": PostgresBind(date), "id": PostgresBind(id.rawValue)]),
            logger: logger)
    }

    func comments(on post: PostID, viewer: UserID?, after: CommentID?, limit: Int) async throws -> [Comment] {
        var binds = [
            "viewer": PostgresBind(viewer?.rawValue), "post": PostgresBind(post.rawValue), "limit": PostgresBind(limit),
        ]
        if let after { binds["after"] = PostgresBind(after.rawValue) }
        let query = try PostgresQuery(after == nil ? Self.firstComments : Self.commentsAfter, binds)
        var comments: [Comment] = []
        for try await (id, postID, parent, text, createdAt, authorID, username, displayName, avatar, editedAt, sealed)
            in try await database
            .query(query, logger: logger)
            .decode((UUID, UUID, UUID?, String, Date, UUID, String, String, String?, Date?, String?).self)
        {
            comments.append(
                Comment(
                    id: CommentID(rawValue: id), postID: PostID(rawValue: postID), parentID: parent.map(CommentID.init),
                    author: AuthorSummary(
                        id: UserID(rawValue: authorID), username: username, displayName: displayName, avatarURL: avatar),
                    text: text, createdAt: createdAt, editedAt: editedAt,
                    sealed: StoredJSON.decode(SealedContent.self, from: sealed)))
        }
        return comments
    }

    private static let firstComments = PostStoreSQL.comments(cursor: "").rendered(.postgres)
    private static let commentsAfter = PostStoreSQL.comments(cursor: "AND c.id > \(bind: "after")").rendered(.postgres)

    func personalBests(of user: UserID) async throws -> [String: ExerciseBests] {
        var bests: [String: ExerciseBests] = [:]
        for try await (key, json) in try await database.query(
            PostgresQuery(PostStoreSQL.personalBests.postgres, ["user": PostgresBind(user.rawValue)]), logger: logger
        ).decode((String, String).self) {
            if let value = StoredJSON.decode(ExerciseBests.self, from: json) { bests[key] = value }
        }
        return bests
    }

    func savePersonalBests(_ bests: [String: ExerciseBests], of user: UserID) async throws {
        for (key, value) in bests {
            try await database.query(
                PostgresQuery(
                    PostStoreSQL.savePersonalBests.postgres,
                    [
                        "user": PostgresBind(user.rawValue), "key": PostgresBind(key),
                        "bests": PostgresBind(StoredJSON.encode(value)),
                    ]), logger: logger)
        }
    }

    private func changed(_ query: PostgresQuery) async throws -> Bool {
        for try await _ in try await database.query(query, logger: logger) { return true }
        return false
    }
}
