import Foundation
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterTestSupport
import Testing

@Suite("Nostr ingest: events of linked keys become posts, templates, kudos and comments")
struct NostrIngestTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// The services the relay's ingest runs on, over a real database, with a clock the test moves.
    struct World {
        let storage: any SpotterStorage
        let clock = ManualClock(NostrIngestTests.start)
        let posts: PostService
        let templates: TemplateService
        let ingest: NostrIngestService

        init(_ storage: any SpotterStorage) {
            self.storage = storage
            posts = PostService(storage: storage, clock: clock)
            templates = TemplateService(storage: storage, clock: clock)
            ingest = NostrIngestService(
                storage: storage, clock: clock, posts: posts, templates: templates,
                social: SocialService(storage: storage, clock: clock))
        }

        /// An account a month old (past the new-account limit), with a key linked to it.
        func person(_ name: String) async throws -> (AccountRecord, NostrSecretKey) {
            let account = AccountRecord(
                id: .generate(at: clock.now), username: name, email: "\(name)@example.com", passwordHash: "hash",
                displayName: name, appleSubject: nil, createdAt: clock.now - 30 * 86_400)
            try await storage.accounts.create(account)
            let key = try NostrSecretKey.generate()
            try await storage.nostr.link(key.publicKey, to: account.id, at: clock.now)
            return (account, key)
        }

        /// Signs an event a second after the last and stores it as the relay does (a deletion request applied),
        /// then hands it to the ingest as the relay does: by its key's owner.
        func publish(
            _ kind: NostrKind, _ tags: [[String]] = [], content: String = "", by key: NostrSecretKey
        ) async throws -> (event: NostrEvent, outcome: NostrIngestOutcome) {
            clock.advance(by: 1)
            let event = try NostrEvent.sign(
                kind: kind, tags: tags, content: content, createdAt: Int64(clock.now.timeIntervalSince1970), with: key)
            _ = try await storage.nostr.save(
                event, author: try await storage.nostr.owner(of: key.publicKey), receivedAt: clock.now)
            if kind == .deletion { _ = try await storage.nostr.applyDeletion(event) }
            return (event, try await ingest.handle(event))
        }

        /// A workout record of one bench press set, as SpotterKit writes one.
        func workoutRecord(
            weight: Double = 100, by key: NostrSecretKey, title: String = "Push day"
        ) async throws
            -> (event: NostrEvent, outcome: NostrIngestOutcome)
        {
            let workout = WorkoutRecord(
                title: title, type: .strength, startTime: clock.now - 3600, endTime: clock.now,
                exercises: [ExerciseEntry(name: "Bench Press", sets: [WorkoutSet(weightKg: weight, reps: 5)])],
                notes: "Solid.")
            let (tags, content) = NIP101e.workoutRecordEvent(
                workout, identifier: UUID().uuidString.lowercased(), author: key.publicKey, hashtags: ["gym"])
            return try await publish(.workoutRecord, tags, content: content, by: key)
        }

        func post(_ outcome: NostrIngestOutcome, viewer: AccountRecord? = nil) async throws -> Post {
            guard case .imported(.post(let id)) = outcome else { throw Unexpected(outcome: outcome) }
            return try await posts.get(id, viewer: viewer)
        }

        /// Whether the relay serves the event to anyone.
        func served(_ event: NostrEvent) async throws -> Bool {
            try await !storage.nostr.query([NostrFilter(ids: [event.id])], reader: .anonymous, limitCap: 10).isEmpty
        }
    }

    struct Unexpected: Error { let outcome: NostrIngestOutcome }

    static func run(_ backend: StorageBackend, _ body: @Sendable (World) async throws -> Void) async throws {
        try await backend.withStorage { storage in try await body(World(storage)) }
    }

    // MARK: Workouts and templates

    @Test(
        "a workout record becomes one public workout post, with its records, however often it is handled",
        arguments: StorageBackend.available)
    func workoutRecord(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            // Given Ana with a linked key, whose device published a workout before
            let (ana, key) = try await world.person("ana_ingest")
            _ = try await world.workoutRecord(weight: 100, by: key)

            // When it publishes a heavier one
            let (event, outcome) = try await world.workoutRecord(weight: 110, by: key)

            // Then it is a public workout post of hers, tagged as the event says, with its record detected
            let post = try await world.post(outcome)
            #expect(post.author.id == ana.id)
            #expect(post.kind == .workout && post.visibility == .public)
            #expect(post.workout?.exercises.first?.sets == [WorkoutSet(weightKg: 110, reps: 5)])
            #expect(post.hashtags.contains("gym"))
            #expect(post.personalRecords.contains { $0.kind == .heaviestWeight && $0.value == 110 })

            // And handling it again makes nothing new
            #expect(try await world.ingest.handle(event) == .alreadyImported(.post(post.id)))
            #expect(try await world.storage.posts.countPosts(by: ana.id, since: NostrIngestTests.start - 86_400) == 2)
        }
    }

    @Test("the same event handled at once by two callers makes one post", arguments: StorageBackend.available)
    func concurrentHandling(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            // Given a workout record the relay stored, not yet handled
            let (ana, key) = try await world.person("ana_races")
            let workout = WorkoutRecord(
                title: "Race", type: .strength, startTime: world.clock.now - 600, endTime: world.clock.now,
                exercises: [ExerciseEntry(name: "Squat", sets: [WorkoutSet(weightKg: 90, reps: 3)])])
            let (tags, content) = NIP101e.workoutRecordEvent(workout, identifier: "race", author: key.publicKey)
            let event = try NostrEvent.sign(
                kind: .workoutRecord, tags: tags, content: content,
                createdAt: Int64(world.clock.now.timeIntervalSince1970), with: key)
            _ = try await world.storage.nostr.save(event, author: ana.id, receivedAt: world.clock.now)

            // When two nodes handle it at the same time
            async let first = world.ingest.handle(event)
            async let second = world.ingest.handle(event)
            let outcomes = try await [first, second]

            // Then one made the post and the other found it made
            let made = outcomes.compactMap { outcome -> PostID? in
                if case .imported(.post(let id)) = outcome { return id }
                return nil
            }
            try #require(made.count == 1)
            #expect(outcomes.contains(.alreadyImported(.post(made[0]))))
            #expect(try await world.storage.posts.countPosts(by: ana.id, since: NostrIngestTests.start - 86_400) == 1)
        }
    }

    @Test("a suspended person's events make nothing", arguments: StorageBackend.available)
    func suspended(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            let (ana, key) = try await world.person("ana_suspended")
            try await world.storage.accounts.setSuspended(ana.id, at: world.clock.now)
            let (event, outcome) = try await world.workoutRecord(by: key)
            #expect(outcome == .ignored)
            #expect(try await world.storage.nostr.importRecord(of: event.id) == nil)
            #expect(try await world.storage.posts.countPosts(by: ana.id, since: NostrIngestTests.start - 86_400) == 0)
        }
    }

    @Test("RUNSTR's run becomes a cardio workout post", arguments: StorageBackend.available)
    func runstrRun(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            let (_, key) = try await world.person("rui_ingest")
            let (_, outcome) = try await world.publish(
                .workoutRecord,
                [
                    ["d", "workout_1"], ["title", "Morning Run"], ["exercise", "running"], ["distance", "5.2", "km"],
                    ["duration", "00:30:45"], ["t", "Running"],
                ], content: "Completed a running workout with RUNSTR!", by: key)
            let post = try await world.post(outcome)
            #expect(post.workout?.type == .cardio)
            #expect(post.workout?.exercises.first?.cardio == CardioMetrics(distanceM: 5200, durationS: 1845))
            #expect(post.hashtags.contains("running"))
        }
    }

    @Test(
        "an exercise template and its newer version make one template, which records then name",
        arguments: StorageBackend.available)
    func exerciseTemplate(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            let (ana, key) = try await world.person("ana_templates")
            // Given an exercise template she published, and then a newer version of it
            let first = NIP101e.exerciseTemplateEvent(
                CreateExerciseTemplateRequest(name: "Bench", equipment: "barbell", format: ["weight", "reps"]),
                identifier: "bench")
            let (_, created) = try await world.publish(.exerciseTemplate, first.tags, by: key)
            guard case .imported(.exerciseTemplate(let id)) = created else { throw Unexpected(outcome: created) }
            let second = NIP101e.exerciseTemplateEvent(
                CreateExerciseTemplateRequest(
                    name: "Barbell Bench Press", equipment: "barbell", format: ["weight", "reps"]),
                identifier: "bench")
            let (_, updated) = try await world.publish(.exerciseTemplate, second.tags, by: key)

            // Then the newer version updated the same template
            #expect(updated == .imported(.exerciseTemplate(id)))
            let template = try await world.templates.exercise(id, viewer: ana)
            #expect(template.name == "Barbell Bench Press")
            #expect(template.visibility == .public)

            // And a record naming it shows the template's name and links it
            let reference = NIP101e.Reference(kind: .exerciseTemplate, pubkey: key.publicKey, identifier: "bench")
            let (_, outcome) = try await world.publish(
                .workoutRecord,
                [
                    ["d", "w1"], ["title", "Bench day"], ["type", "strength"],
                    ["start", "\(Int(world.clock.now.timeIntervalSince1970) - 600)"],
                    ["end", "\(Int(world.clock.now.timeIntervalSince1970))"],
                    ["exercise", reference.description, "", "80", "8"], ["completed", "true"],
                ], by: key)
            let exercise = try await world.post(outcome).workout?.exercises.first
            #expect(exercise?.name == "Barbell Bench Press")
            #expect(exercise?.exerciseID == id)
            #expect(exercise?.sets == [WorkoutSet(weightKg: 80, reps: 8)])
        }
    }

    @Test("a workout template and its newer version make one template", arguments: StorageBackend.available)
    func workoutTemplate(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            let (ana, key) = try await world.person("ana_plans")
            func version(_ name: String) -> [[String]] {
                NIP101e.workoutTemplateEvent(
                    CreateWorkoutTemplateRequest(
                        name: name, type: .strength,
                        exercises: [TemplateExercise(name: "Squat", targetSets: [TargetSet(weightKg: 100, reps: 5)])]),
                    identifier: "five-by-five", author: key.publicKey
                ).tags
            }
            let (_, created) = try await world.publish(.workoutTemplate, version("5x5"), by: key)
            guard case .imported(.workoutTemplate(let id)) = created else { throw Unexpected(outcome: created) }
            let (_, updated) = try await world.publish(.workoutTemplate, version("5×5 A"), by: key)
            #expect(updated == .imported(.workoutTemplate(id)))
            let template = try await world.templates.workoutTemplate(id, viewer: ana)
            #expect(template.name == "5×5 A")
            #expect(
                template.exercises == [TemplateExercise(name: "Squat", targetSets: [TargetSet(weightKg: 100, reps: 5)])]
            )
        }
    }

    @Test(
        "a note with a fitness tag becomes a public note; one without makes nothing",
        arguments: StorageBackend.available)
    func notes(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            let (ana, key) = try await world.person("ana_notes")
            let (_, tagged) = try await world.publish(.textNote, [["t", "Running"]], content: "Easy 10k", by: key)
            let note = try await world.post(tagged)
            #expect(note.kind == .note && note.visibility == .public)
            #expect(note.hashtags == ["running"])
            #expect(note.text.hasPrefix("Easy 10k"))
            let (_, plain) = try await world.publish(.textNote, [["t", "cats"]], content: "My cat", by: key)
            #expect(plain == .ignored)
            #expect(try await world.storage.posts.countPosts(by: ana.id, since: NostrIngestTests.start - 86_400) == 1)
        }
    }

    @Test("what Spotter's rules refuse is not recorded and makes nothing", arguments: StorageBackend.available)
    func refusals(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            let (ana, key) = try await world.person("ana_refused")
            let (empty, nothing) = try await world.publish(.workoutRecord, [["d", "x"], ["title", "?"]], by: key)
            #expect(nothing == .refused(NIP101eError.noExercises.description))
            #expect(try await world.storage.nostr.importRecord(of: empty.id) == nil)
            let (_, tooLong) = try await world.publish(
                .workoutRecord,
                [
                    ["title", "Forever"], ["start", "0"], ["end", "200000"], ["exercise", "running"],
                    ["duration", "1:00:00"],
                ],
                by: key)
            guard case .refused(let reason) = tooLong else { throw Unexpected(outcome: tooLong) }
            #expect(reason.contains("workout.end_time"))
            #expect(try await world.storage.posts.countPosts(by: ana.id, since: NostrIngestTests.start - 86_400) == 0)
        }
    }

    // MARK: Deletions, reactions, comments

    @Test("a deletion request deletes the post and the template its events became", arguments: StorageBackend.available)
    func deletion(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            let (ana, key) = try await world.person("ana_deletes")
            let (record, outcome) = try await world.workoutRecord(by: key)
            let post = try await world.post(outcome)
            let template = NIP101e.exerciseTemplateEvent(
                CreateExerciseTemplateRequest(name: "Dips"), identifier: "dips")
            let (_, created) = try await world.publish(.exerciseTemplate, template.tags, by: key)
            guard case .imported(.exerciseTemplate(let id)) = created else { throw Unexpected(outcome: created) }

            // When she asks for the record and the template's address to be deleted
            let address = "33401:\(key.publicKey.rawValue):dips"
            let (_, deleted) = try await world.publish(
                .deletion, [["e", record.id.rawValue], ["a", address]], by: key)

            // Then both are gone from Spotter
            #expect(deleted == .imported(.none))
            await #expect(throws: SpotterError.notFound("No such post.")) {
                try await world.posts.get(post.id, viewer: ana)
            }
            await #expect(throws: SpotterError.notFound("No such exercise.")) {
                try await world.templates.exercise(id, viewer: ana)
            }
        }
    }

    @Test("someone else's deletion request deletes nothing", arguments: StorageBackend.available)
    func foreignDeletion(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            let (_, anaKey) = try await world.person("ana_kept")
            let (_, beaKey) = try await world.person("bea_kept")
            let (record, outcome) = try await world.workoutRecord(by: anaKey)
            let post = try await world.post(outcome)
            _ = try await world.publish(.deletion, [["e", record.id.rawValue]], by: beaKey)
            #expect(try await world.posts.get(post.id, viewer: nil).id == post.id)
        }
    }

    @Test(
        "a reaction from a linked key is kudos, once; a dislike or an unlinked key's reaction is nothing",
        arguments: StorageBackend.available)
    func reactions(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            let (ana, anaKey) = try await world.person("ana_kudos")
            let (bea, beaKey) = try await world.person("bea_kudos")
            let (_, caiKey) = try await world.person("cai_kudos")
            let (record, outcome) = try await world.workoutRecord(by: anaKey)
            let post = try await world.post(outcome)
            let tags = [["e", record.id.rawValue], ["p", anaKey.publicKey.rawValue], ["k", "1301"]]

            // When Bea reacts, and her reaction is handled twice
            let (reaction, kudos) = try await world.publish(.reaction, tags, content: "+", by: beaKey)
            #expect(kudos == .imported(.kudos(post.id, by: bea.id)))
            #expect(try await world.ingest.handle(reaction) == .alreadyImported(.kudos(post.id, by: bea.id)))

            // And Cai dislikes it, and a key linked to nobody reacts
            #expect(try await world.publish(.reaction, tags, content: "-", by: caiKey).outcome == .imported(.none))
            let stranger = try NostrSecretKey.generate()
            #expect(try await world.publish(.reaction, tags, content: "🔥", by: stranger).outcome == .ignored)

            // Then the post has Bea's kudos only
            let seen = try await world.posts.get(post.id, viewer: ana)
            #expect(seen.kudosCount == 1)
            #expect(seen.kudosPreview.map(\.id) == [bea.id])
        }
    }

    @Test(
        "a NIP-22 comment on an imported post is a comment, a reply joins its thread, a deletion removes it",
        arguments: StorageBackend.available)
    func comments(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            let (ana, anaKey) = try await world.person("ana_comments")
            let (bea, beaKey) = try await world.person("bea_comments")
            let (record, outcome) = try await world.workoutRecord(by: anaKey)
            let post = try await world.post(outcome)
            let root = [
                ["E", record.id.rawValue, "", anaKey.publicKey.rawValue], ["K", "1301"],
                ["P", anaKey.publicKey.rawValue],
            ]

            // When Bea comments, and Ana replies to her comment
            let (first, commented) = try await world.publish(
                .comment, root + [["e", record.id.rawValue], ["k", "1301"]], content: "Strong!", by: beaKey)
            guard case .imported(.comment(post.id, let commentID)) = commented else {
                throw Unexpected(outcome: commented)
            }
            let (_, replied) = try await world.publish(
                .comment, root + [["e", first.id.rawValue], ["k", "1111"]], content: "Thanks", by: anaKey)
            guard case .imported(.comment(post.id, let replyID)) = replied else { throw Unexpected(outcome: replied) }

            // Then the post has both, the reply in the comment's thread
            var comments = try await world.posts.comments(on: post.id, viewer: ana, page: PageRequest(limit: 10))
            #expect(comments.items.map(\.id) == [commentID, replyID])
            #expect(comments.items.map(\.author.id) == [bea.id, ana.id])
            #expect(comments.items.last?.parentID == commentID)
            #expect(comments.items.first?.text == "Strong!")

            // And when Bea deletes her comment's event, the comment goes
            _ = try await world.publish(.deletion, [["e", first.id.rawValue]], by: beaKey)
            comments = try await world.posts.comments(on: post.id, viewer: ana, page: PageRequest(limit: 10))
            #expect(!comments.items.map(\.id).contains(commentID))
        }
    }

    // MARK: Spotter back to the relay

    @Test(
        "a post deleted or no longer public in Spotter takes its event off the relay; public again, it returns",
        arguments: StorageBackend.available)
    func reverse(backend: StorageBackend) async throws {
        try await Self.run(backend) { world in
            let (ana, key) = try await world.person("ana_reverse")
            let (event, outcome) = try await world.workoutRecord(by: key)
            let post = try await world.post(outcome)
            #expect(try await world.served(event))

            _ = try await world.posts.update(post.id, with: UpdatePostRequest(visibility: .followers), viewer: ana)
            #expect(try await !world.served(event))
            _ = try await world.posts.update(post.id, with: UpdatePostRequest(visibility: .public), viewer: ana)
            #expect(try await world.served(event))

            try await world.posts.delete(post.id, viewer: ana)
            #expect(try await !world.served(event))
        }
    }
}
