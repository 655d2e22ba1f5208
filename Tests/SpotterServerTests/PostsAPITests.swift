import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Posts, kudos, comments and feeds over HTTP")
struct PostsAPITests {
    @Test(
        "a note parses hashtags and mentions; edits set edited_at; deletes leave nothing behind",
        arguments: StorageBackend.available)
    func noteLifecycle(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            try await api.follow(bea, "ana")
            let post = try await api.post(ana, "Squats with @Bea today #LegDay #legday ana@example.com")
            #expect(post.hashtags == ["legday"])
            #expect(post.mentions == ["bea"])
            #expect(post.editedAt == nil)
            api.clock.advance(by: 60)
            let edited = try await api.call(
                .patch, "/api/v1/posts/\(post.id)", token: ana, body: UpdatePostRequest(text: "Front squats #squats"))
            let editedPost = try edited.decode(Post.self)
            #expect(editedPost.editedAt != nil)
            #expect(editedPost.hashtags == ["squats"])
            #expect(
                try await api.call(.patch, "/api/v1/posts/\(post.id)", token: bea, body: UpdatePostRequest(text: "x"))
                    .status == .forbidden)
            #expect(try await api.call(.delete, "/api/v1/posts/\(post.id)", token: bea).status == .forbidden)
            #expect(try await api.call(.delete, "/api/v1/posts/\(post.id)", token: ana).status == .noContent)
            // Gone from the post route, every feed and every count.
            #expect(try await api.call(.get, "/api/v1/posts/\(post.id)", token: ana).status == .notFound)
            #expect(try await api.feed("/api/v1/feeds/following", token: bea).items.isEmpty)
            #expect(try await api.feed("/api/v1/feeds/tags/squats", token: nil).items.isEmpty)
            #expect(try await api.call(.get, "/api/v1/users/ana").decode(Profile.self).postsCount == 0)
            #expect(try await api.call(.delete, "/api/v1/posts/\(post.id)", token: ana).status == .notFound)
        }
    }

    @Test("bad posts are refused naming the field", arguments: StorageBackend.available)
    func validation(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let empty = try await api.call(
                .post, "/api/v1/posts", token: ana, body: CreatePostRequest(kind: .note, text: "  "))
            #expect(try empty.problem().errors?.first?.field == "text")
            let start = api.clock.now
            let workout = WorkoutRecord(
                title: "", type: .strength, startTime: start, endTime: start - 10,
                exercises: [ExerciseEntry(name: "Squat", sets: [WorkoutSet(weightKg: -5, reps: 5, rpe: 11)])])
            let bad = try await api.call(
                .post, "/api/v1/posts", token: ana, body: CreatePostRequest(kind: .workout, workout: workout))
            #expect(bad.status == .unprocessableContent)
            let fields = Set(try bad.problem().errors?.map(\.field) ?? [])
            #expect(
                fields == [
                    "workout.title", "workout.end_time", "workout.exercises[0].sets[0].weight_kg",
                    "workout.exercises[0].sets[0].rpe",
                ])
            let wrongType = try await api.call(
                .post, "/api/v1/posts", token: ana, json: #"{"kind": "workout", "workout": {"title": 5}}"#)
            #expect(wrongType.status == .badRequest)
            #expect(try wrongType.problem().errors?.first?.field == "workout.title")
            let badKind = try await api.call(.post, "/api/v1/posts", token: ana, json: #"{"kind": "video"}"#)
            #expect(badKind.status == .badRequest)
            #expect(try await api.call(.get, "/api/v1/posts/not-an-id").status == .badRequest)
        }
    }

    @Test("a workout that beats the user's best carries its personal records", arguments: StorageBackend.available)
    func personalRecords(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let day = api.clock.now
            let first = try await api.workout(ana, "Monday", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: day)
            #expect(first.personalRecords.isEmpty)
            #expect(first.kind == .workout)
            #expect(first.workout?.exercises.first?.sets?.first?.weightKg == 100)
            let second = try await api.workout(
                ana, "Thursday",
                sets: [WorkoutSet(weightKg: 60, reps: 10, setType: .warmup), WorkoutSet(weightKg: 105, reps: 5)],
                at: day + 3 * 86_400)
            let kinds = Set(second.personalRecords.map(\.kind))
            #expect(kinds.contains(.heaviestWeight))
            #expect(kinds.contains(.estimatedOneRepMax))
            #expect(second.personalRecords.allSatisfy { $0.postID == second.id })
            let third = try await api.workout(
                ana, "Lighter", sets: [WorkoutSet(weightKg: 90, reps: 5)], at: day + 5 * 86_400)
            #expect(third.personalRecords.isEmpty)
        }
    }

    @Test(
        "kudos toggle idempotently, count, preview and show the viewer's own state", arguments: StorageBackend.available
    )
    func kudos(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let post = try await api.post(ana, "PR day #pr")
            var givers: [String] = []
            for name in ["bea", "cai", "dee", "eve"] {
                let token = try await api.user(name)
                let state = try await api.call(.post, "/api/v1/posts/\(post.id)/kudos", token: token).decode(
                    KudosState.self)
                #expect(state.kudosedByMe)
                givers.append(token)
            }
            let again = try await api.call(.post, "/api/v1/posts/\(post.id)/kudos", token: givers[0]).decode(
                KudosState.self)
            #expect(again.kudosCount == 4)
            let seen = try await api.call(.get, "/api/v1/posts/\(post.id)", token: givers[1]).decode(Post.self)
            #expect(seen.kudosedByMe)
            #expect(seen.kudosPreview.map(\.username) == ["bea", "cai", "dee"])
            let undone = try await api.call(.delete, "/api/v1/posts/\(post.id)/kudos", token: givers[0]).decode(
                KudosState.self)
            #expect(undone.kudosCount == 3 && !undone.kudosedByMe)
            let undoneAgain = try await api.call(.delete, "/api/v1/posts/\(post.id)/kudos", token: givers[0])
                .decode(KudosState.self)
            #expect(undoneAgain.kudosCount == 3)
            #expect(try await api.call(.post, "/api/v1/posts/\(post.id)/kudos", token: ana).status == .forbidden)
            #expect(
                try await api.call(.post, "/api/v1/posts/\(PostID.generate())/kudos", token: ana).status == .notFound)
        }
    }

    @Test(
        "a feed page shows every change to its posts at once: a kudos, an edit, the author's new name",
        arguments: StorageBackend.available)
    func feedPagesFollowChanges(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let cai = try await api.user("cai")
            let dee = try await api.user("dee")
            try await api.follow(bea, "ana")
            try await api.follow(cai, "ana")
            let older = try await api.post(ana, "Easy run")
            api.clock.advance(by: 60)
            let post = try await api.post(ana, "Deadlift day")
            // Each page is read twice: the second read is written from what the first remembered.
            func page(_ token: String, cursor: String? = nil) async throws -> Page<Post> {
                let path = "/api/v1/feeds/following?limit=1" + (cursor.map { "&cursor=\($0)" } ?? "")
                let first = try await api.feed(path, token: token)
                #expect(try await api.feed(path, token: token) == first)
                return first
            }
            let before = try await page(bea)
            #expect(before.items.map(\.id) == [post.id] && before.items.first?.kudosCount == 0)

            _ = try await api.call(.post, "/api/v1/posts/\(post.id)/kudos", token: bea)
            let given = try await page(bea).items.first
            #expect(given?.kudosCount == 1 && given?.kudosedByMe == true)
            #expect(given?.kudosPreview.map(\.username) == ["bea"])
            let seen = try await page(cai).items.first
            #expect(seen?.kudosCount == 1 && seen?.kudosedByMe == false)

            _ = try await api.call(
                .patch, "/api/v1/posts/\(post.id)", token: ana, body: UpdatePostRequest(text: "Deadlift PR"))
            #expect(try await page(cai).items.first?.text == "Deadlift PR")
            _ = try await api.call(.patch, "/api/v1/me", token: ana, body: UpdateAccountRequest(displayName: "Ana B"))
            let renamed = try await page(cai)
            #expect(renamed.items.first?.author.displayName == "Ana B")

            let cursor: String = try #require(renamed.nextCursor)
            let last = try await page(cai, cursor: cursor)
            #expect(last.items.map(\.id) == [older.id] && last.nextCursor == nil)
            #expect(try await page(dee).items.isEmpty)
        }
    }

    @Test(
        "comments take one level of replies and can be deleted by their author or the post's",
        arguments: StorageBackend.available)
    func comments(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let cai = try await api.user("cai")
            let post = try await api.post(ana, "Marathon done #running")
            let top = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: bea, body: CreateCommentRequest(text: "Congrats!")
            ).decode(SpotterModels.Comment.self)
            let reply = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: ana,
                body: CreateCommentRequest(text: "Thanks", parentID: top.id)
            ).decode(SpotterModels.Comment.self)
            #expect(reply.parentID == top.id)
            let nested = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: cai,
                body: CreateCommentRequest(text: "Same here", parentID: reply.id)
            ).decode(SpotterModels.Comment.self)
            #expect(nested.parentID == top.id)
            let foreign = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: cai,
                body: CreateCommentRequest(text: "x", parentID: CommentID.generate()))
            #expect(try foreign.problem().errors?.first?.field == "parent_id")
            #expect(
                try await api.call(.get, "/api/v1/posts/\(post.id)", token: bea).decode(Post.self).commentsCount == 3)
            #expect(
                try await api.call(.delete, "/api/v1/posts/\(post.id)/comments/\(top.id)", token: cai).status
                    == .forbidden)
            #expect(
                try await api.call(.delete, "/api/v1/posts/\(post.id)/comments/\(nested.id)", token: ana).status
                    == .noContent)
            #expect(
                try await api.call(.delete, "/api/v1/posts/\(post.id)/comments/\(top.id)", token: bea).status
                    == .noContent)
            // The reply under a deleted comment goes with it.
            let left = try await api.call(.get, "/api/v1/posts/\(post.id)/comments").decode(
                Page<SpotterModels.Comment>.self)
            #expect(left.items.isEmpty)
        }
    }

    @Test(
        "the following feed pages without skips or repeats while posts arrive, and fills gaps",
        arguments: StorageBackend.available)
    func followingFeedPagination(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountPostsPerHour = 1000 }) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            try await api.follow(ana, "bea")
            var made: [PostID] = []
            for index in 0..<12 { made.append(try await api.post(bea, "post \(index)").id) }
            var seen: [PostID] = []
            var path = "/api/v1/feeds/following?limit=5"
            var newest: PostID?
            while true {
                let page = try await api.feed(path, token: ana)
                newest = newest ?? page.items.first?.id
                seen += page.items.map(\.id)
                _ = try await api.post(bea, "arrived while paging \(seen.count)")
                guard let cursor = page.nextCursor else { break }
                path = "/api/v1/feeds/following?limit=5&cursor=\(cursor)"
            }
            #expect(seen == made.reversed())
            let since = PageRequest.encode(try #require(newest).rawValue)
            let gap = try await api.feed("/api/v1/feeds/following?since=\(since)", token: ana)
            #expect(gap.items.count == 3)
            #expect(gap.items.map(\.text).allSatisfy { $0.hasPrefix("arrived") })
            #expect(try await api.call(.get, "/api/v1/feeds/following?limit=51", token: ana).status == .badRequest)
            #expect(try await api.call(.get, "/api/v1/feeds/following?cursor=nope", token: ana).status == .badRequest)
            #expect(try await api.call(.get, "/api/v1/feeds/following").status == .unauthorized)
        }
    }

    @Test(
        "global feed: fitness content only, no duplicates, new accounts rate-limited",
        arguments: StorageBackend.available)
    func globalFeedRules(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            _ = try await api.post(ana, "Deadlifts #gym")
            _ = try await api.post(ana, "my cat is cute")
            _ = try await api.post(ana, "Deadlifts  #GYM")
            _ = try await api.workout(ana, "Run", sets: [WorkoutSet(weightKg: 0, reps: 1)], at: api.clock.now)
            let global = try await api.feed("/api/v1/feeds/global", token: nil)
            #expect(global.items.map(\.kind) == [.workout, .note])
            #expect(global.items.last?.text == "Deadlifts #gym")
            // Ana's account is new: the 6th post within an hour is refused.
            _ = try await api.post(ana, "five")
            let sixth = try await api.call(
                .post, "/api/v1/posts", token: ana, body: CreatePostRequest(kind: .note, text: "six"))
            #expect(sixth.status == .tooManyRequests)
            #expect(sixth.headers[.retryAfter] != nil)
            api.clock.advance(by: 25 * 3600)
            let fresh = try await api.signin("ana").decode(TokenResponse.self).accessToken
            let later = try await api.call(
                .post, "/api/v1/posts", token: fresh, body: CreatePostRequest(kind: .note, text: "six"))
            #expect(later.status == .created)
        }
    }

    @Test("a suspended account vanishes and can't sign in", arguments: StorageBackend.available)
    func suspension(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bad = try await api.signup("spammer")
            try await api.follow(ana, "spammer")
            let spam = try await api.post(bad.accessToken, "buy now #gym")
            _ = try await api.call(
                .post, "/api/v1/posts/\(spam.id)/comments", token: ana, body: CreateCommentRequest(text: "no"))
            try await api.suspend("spammer")
            #expect(try await api.call(.get, "/api/v1/users/spammer", token: ana).status == .notFound)
            #expect(try await api.call(.get, "/api/v1/posts/\(spam.id)", token: ana).status == .notFound)
            #expect(try await api.feed("/api/v1/feeds/following", token: ana).items.isEmpty)
            #expect(try await api.feed("/api/v1/feeds/global", token: nil).items.isEmpty)
            #expect(try await api.call(.get, "/api/v1/users/ana").decode(Profile.self).followingCount == 0)
            #expect(try await api.call(.get, "/api/v1/me", token: bad.accessToken).status == .forbidden)
            #expect(try await api.signin("spammer").status == .forbidden)
        }
    }
}

@Suite("Featured feed over HTTP")
struct FeaturedFeedTests {
    @Test(
        "trending public posts rank by reactions and age; featured accounts lead; private posts never show",
        arguments: StorageBackend.available)
    func featured(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let coach = try await api.user("coach")
            let now = api.clock.now
            // A week-old session uploaded now, a fresh note, a followers-only post and a coach's post.
            _ = try await api.workout(ana, "Last week", sets: [WorkoutSet(weightKg: 50, reps: 5)], at: now - 6 * 86_400)
            let fresh = try await api.post(bea, "Fresh #gym")
            _ = try await api.post(bea, "Friends only", visibility: .followers)
            api.clock.advance(by: 60)
            let coachPost = try await api.post(coach, "Coach tip #training")
            _ = try await api.call(.post, "/api/v1/posts/\(fresh.id)/kudos", token: ana)
            var feed = try await api.feed("/api/v1/feeds/featured", token: nil)
            #expect(feed.items.first?.id == fresh.id)
            #expect(feed.items.last?.workout?.title == "Last week")
            #expect(!feed.items.map(\.text).contains("Friends only"))
            // Once an admin features the coach, the coach leads.
            let admin = try await api.signup("admin")
            _ = try await AdminService(storage: api.storage, clock: api.clock).setRole("admin", .admin)
            #expect(
                try await api.call(.post, "/api/v1/admin/users/coach/feature", token: admin.accessToken).status
                    == .noContent)
            #expect(try await api.call(.post, "/api/v1/admin/users/coach/feature", token: ana).status == .forbidden)
            feed = try await api.feed("/api/v1/feeds/featured", token: ana)
            #expect(feed.items.first?.id == coachPost.id)
            // Pages are positions in the ranking.
            let first = try await api.feed("/api/v1/feeds/featured?limit=2", token: nil)
            let cursor = try #require(first.nextCursor)
            let second = try await api.feed("/api/v1/feeds/featured?limit=2&cursor=\(cursor)", token: nil)
            #expect(second.items.count == 1)
            #expect(Set(first.items.map(\.id) + second.items.map(\.id)).count == 3)
            #expect(try await api.call(.get, "/api/v1/feeds/featured?cursor=abc").status == .badRequest)
        }
    }
}
