import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterTestSupport
import Testing

/// Correcting a logged workout's numbers (`PATCH /api/v1/posts/{id}` with a `workout`): the records and the
/// progress that read them follow the edit.
@Suite("Editing a workout's numbers over HTTP")
struct WorkoutEditAPITests {
    static func squats(_ title: String, _ sets: [(Double, Int)], at start: Date) -> WorkoutRecord {
        WorkoutRecord(
            title: title, type: .strength, startTime: start, endTime: start + 3600,
            exercises: [ExerciseEntry(name: "Back Squat", sets: sets.map { WorkoutSet(weightKg: $0.0, reps: $0.1) })])
    }

    static func log(_ api: APIClient, _ token: String, _ workout: WorkoutRecord) async throws -> Post {
        let response = try await api.call(
            .post, "/api/v1/posts", token: token, body: CreatePostRequest(kind: .workout, workout: workout))
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
        return try response.decode(Post.self)
    }

    @Test(
        "lowering a record's squat takes its record away, a later workout becomes the record, and progress follows",
        arguments: StorageBackend.available)
    func recordsFollowTheEdit(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountPostsPerHour = 100 }) { api in
            // Given Ana's squats on Monday (her baseline), Wednesday (a record: 110 kg) and Friday (105 kg: none)
            let ana = try await api.user("ana")
            let monday = api.clock.now - 4 * 86_400
            _ = try await Self.log(api, ana, Self.squats("Monday", [(100, 5)], at: monday))
            let wednesday = try await Self.log(api, ana, Self.squats("Wednesday", [(110, 5)], at: monday + 2 * 86_400))
            let friday = try await Self.log(api, ana, Self.squats("Friday", [(105, 5)], at: monday + 4 * 86_400))
            #expect(wednesday.personalRecords.contains { $0.kind == .heaviestWeight && $0.value == 110 })
            #expect(friday.personalRecords.isEmpty)

            // When she corrects Wednesday: it was 100 kg, not 110
            api.clock.advance(by: 60)
            let corrected = Self.squats("Wednesday", [(100, 5)], at: monday + 2 * 86_400)
            let response = try await api.call(
                .patch, "/api/v1/posts/\(wednesday.id)", token: ana, body: UpdatePostRequest(workout: corrected))

            // Then Wednesday shows the new numbers and is no longer a record, and is marked edited
            #expect(response.status == .ok)
            let edited = try response.decode(Post.self)
            #expect(edited.workout?.exercises.first?.sets == [WorkoutSet(weightKg: 100, reps: 5)])
            #expect(edited.personalRecords.isEmpty)
            #expect(edited.editedAt != nil)
            let wednesdayNow = try await api.call(.get, "/api/v1/posts/\(wednesday.id)").decode(Post.self)
            #expect(wednesdayNow.personalRecords.isEmpty)

            // And Friday's 105 kg, now the heaviest since Monday, is the record, without being marked edited
            let fridayNow = try await api.call(.get, "/api/v1/posts/\(friday.id)").decode(Post.self)
            #expect(fridayNow.personalRecords.contains { $0.kind == .heaviestWeight && $0.value == 105 })
            #expect(fridayNow.personalRecords.contains { $0.kind == .estimatedOneRepMax })
            #expect(fridayNow.editedAt == nil)

            // And her progress reads the corrected numbers: 105 kg stands, 110 kg is nowhere
            let report = try await api.call(.get, "/api/v1/users/ana/progress").decode(ProgressReport.self)
            let standing = Set(report.personalRecords.map { "\($0.kind.rawValue) \($0.value)" })
            #expect(standing == ["heaviest_weight 105.0", "estimated_1rm \(105 * (1 + 5.0 / 30))"])
            #expect(report.personalRecords.allSatisfy { $0.postID == friday.id })
            let squat = try #require(report.exercises.first { $0.exercise == "Back Squat" })
            #expect(squat.points.map(\.estimatedOneRepMaxKg) == [100.0, 100, 105].map { $0 * (1 + 5.0 / 30) })
            #expect(report.weeks.reduce(0) { $0 + $1.volumeKg } == 500 + 500 + 525)

            // And a new workout is measured against the corrected bests: 107.5 kg beats Friday's 105
            let next = try await Self.log(api, ana, Self.squats("Sunday", [(107.5, 5)], at: monday + 6 * 86_400))
            #expect(next.personalRecords.contains { $0.kind == .heaviestWeight && $0.value == 107.5 })
        }
    }

    @Test(
        "raising an old workout makes it the record, and later ones it now outweighs are records no more",
        arguments: StorageBackend.available)
    func raisingAnOldWorkout(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountPostsPerHour = 100 }) { api in
            // Given Ana's squats: 100 kg, then 105 kg (a record), then 110 kg (a record)
            let ana = try await api.user("ana")
            let start = api.clock.now - 5 * 86_400
            let first = try await Self.log(api, ana, Self.squats("One", [(100, 5)], at: start))
            _ = try await Self.log(api, ana, Self.squats("Two", [(90, 5)], at: start + 86_400))
            let second = try await Self.log(api, ana, Self.squats("Three", [(105, 5)], at: start + 2 * 86_400))
            let third = try await Self.log(api, ana, Self.squats("Four", [(110, 5)], at: start + 3 * 86_400))
            #expect(second.personalRecords.contains { $0.kind == .heaviestWeight })

            // When she corrects the second workout, 90 kg, to 108 kg
            let two = try await api.call(.get, "/api/v1/users/ana/posts", token: ana).decode(Page<Post>.self)
                .items.first { $0.workout?.title == "Two" }
            let twoID = try #require(two?.id)
            let raised = Self.squats("Two", [(108, 5)], at: start + 86_400)
            let response = try await api.call(
                .patch, "/api/v1/posts/\(twoID)", token: ana, body: UpdatePostRequest(workout: raised))

            // Then it is the record; 105 kg after it is none; 110 kg still is; the first is untouched
            #expect(response.status == .ok)
            #expect(
                try response.decode(Post.self).personalRecords.contains {
                    $0.kind == .heaviestWeight && $0.value == 108
                })
            let records = { (id: PostID) in
                try await api.call(.get, "/api/v1/posts/\(id)").decode(Post.self).personalRecords
            }
            #expect(try await records(second.id).isEmpty)
            #expect(try await records(third.id).contains { $0.kind == .heaviestWeight && $0.value == 110 })
            #expect(try await records(first.id).isEmpty)
        }
    }

    @Test(
        "a wrong number is refused naming its field, and the workout stays as it was",
        arguments: StorageBackend.available)
    func validation(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's workout of two sets
            let ana = try await api.user("ana")
            let logged = try await Self.log(api, ana, Self.squats("Legs", [(100, 5), (100, 5)], at: api.clock.now))

            // When she sends a second set of -1 reps and an end before the start
            var wrong = Self.squats("Legs", [(100, 5), (100, -1)], at: api.clock.now)
            wrong.endTime = api.clock.now - 60
            let response = try await api.call(
                .patch, "/api/v1/posts/\(logged.id)", token: ana, body: UpdatePostRequest(workout: wrong))

            // Then it is a 422 naming each field, and nothing changed
            #expect(response.status == .unprocessableContent)
            let fields = Set(try response.problem().errors?.map(\.field) ?? [])
            #expect(fields == ["workout.exercises[0].sets[1].reps", "workout.end_time"])
            let kept = try await api.call(.get, "/api/v1/posts/\(logged.id)").decode(Post.self)
            #expect(kept.workout == logged.workout)
            #expect(kept.editedAt == nil)
        }
    }

    @Test(
        "only the author edits a workout: a follower is refused (403), someone who cannot see it finds nothing (404)",
        arguments: StorageBackend.available)
    func onlyTheAuthor(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's followers-only workout, which Bea follows her to see and Cai does not
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let cai = try await api.user("cai")
            try await api.follow(bea, "ana")
            var workout = Self.squats("Legs", [(100, 5)], at: api.clock.now)
            let posted = try await api.call(
                .post, "/api/v1/posts", token: ana,
                body: CreatePostRequest(kind: .workout, visibility: .followers, workout: workout))
            let post = try posted.decode(Post.self)

            // When Bea and Cai each send new numbers
            workout.exercises[0].sets = [WorkoutSet(weightKg: 200, reps: 5)]
            let byBea = try await api.call(
                .patch, "/api/v1/posts/\(post.id)", token: bea, body: UpdatePostRequest(workout: workout))
            let byCai = try await api.call(
                .patch, "/api/v1/posts/\(post.id)", token: cai, body: UpdatePostRequest(workout: workout))

            // Then Bea is refused, Cai finds no such post, and the numbers are Ana's
            #expect(byBea.status == .forbidden)
            #expect(byCai.status == .notFound)
            let kept = try await api.call(.get, "/api/v1/posts/\(post.id)", token: ana).decode(Post.self)
            #expect(kept.workout?.exercises.first?.sets == [WorkoutSet(weightKg: 100, reps: 5)])
        }
    }

    @Test("a group's workout edited keeps to its group", arguments: StorageBackend.available)
    func groupPost(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's workout in her private group
            let ana = try await api.user("ana")
            let group = try await api.createGroup(ana, "Garage gym", access: .private)
            let posted = try await api.call(
                .post, "/api/v1/posts", token: ana,
                body: CreatePostRequest(
                    kind: .workout, workout: Self.squats("Legs", [(100, 5)], at: api.clock.now), groupID: group.id))
            let post = try posted.decode(Post.self)

            // When she corrects its numbers
            let response = try await api.call(
                .patch, "/api/v1/posts/\(post.id)", token: ana,
                body: UpdatePostRequest(workout: Self.squats("Legs", [(102.5, 5)], at: api.clock.now)))

            // Then it is still the group's, and nobody outside sees it
            let edited = try response.decode(Post.self)
            #expect(edited.visibility == .group && edited.group?.id == group.id)
            #expect(edited.workout?.exercises.first?.sets?.first?.weightKg == 102.5)
            #expect(try await api.call(.get, "/api/v1/posts/\(post.id)").status == .notFound)
        }
    }

    @Test(
        "a workout made from a signed Nostr event keeps its numbers: the server cannot sign the change (409)",
        arguments: StorageBackend.available)
    func signedWorkout(backend: StorageBackend) async throws {
        try await NostrIngestTests.run(backend) { world in
            // Given Ana's workout, published as a kind 1301 event by her linked key
            let (ana, key) = try await world.person("ana_signed")
            let (event, outcome) = try await world.workoutRecord(weight: 100, by: key)
            let post = try await world.post(outcome, viewer: ana)

            // When she changes its numbers through Spotter
            var workout = try #require(post.workout)
            workout.exercises[0].sets = [WorkoutSet(weightKg: 120, reps: 5)]
            let attempt = await #expect(throws: SpotterError.self) {
                _ = try await world.posts.update(post.id, with: UpdatePostRequest(workout: workout), viewer: ana)
            }

            // Then it is a conflict naming why, and the post and the event the relay serves agree still
            guard case .conflict(let field, let detail) = attempt else {
                Issue.record("expected a conflict, got \(String(describing: attempt))")
                return
            }
            #expect(field == "workout")
            #expect(detail.contains("signed"))
            #expect(try await world.posts.get(post.id, viewer: ana).workout == post.workout)
            #expect(try await world.served(event))

            // And her words about it may still change, as for any post
            let retitled = try await world.posts.update(
                post.id, with: UpdatePostRequest(text: "Solid day #gym"), viewer: ana)
            #expect(retitled.text == "Solid day #gym")
        }
    }
}

@Suite("Editing a workout's numbers, live")
struct WorkoutEditRealtimeTests {
    @Test(
        "post_updated carries the edited sets and the records as they now are; a later post that became a record too",
        arguments: StorageBackend.available)
    func postUpdated(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            // Given Bea following Ana, watching her Following feed and Ana's record-setting squats on Tuesday
            let ana = try await api.user("ana")
            let bea = try await api.signup("bea")
            try await api.follow(bea.accessToken, "ana")
            let monday = api.clock.now - 3 * 86_400
            _ = try await WorkoutEditAPITests.log(
                api, ana, WorkoutEditAPITests.squats("Monday", [(100, 5)], at: monday))
            let tuesday = try await WorkoutEditAPITests.log(
                api, ana, WorkoutEditAPITests.squats("Tuesday", [(110, 5)], at: monday + 86_400))
            let wednesday = try await WorkoutEditAPITests.log(
                api, ana, WorkoutEditAPITests.squats("Wednesday", [(105, 5)], at: monday + 2 * 86_400))
            #expect(!tuesday.personalRecords.isEmpty && wednesday.personalRecords.isEmpty)
            let socket = try await PhoenixTestClient.connect(port: port, token: bea.accessToken)
            _ = try await socket.join("feed:\(bea.user.id)", ref: "1")
            _ = try await socket.join("post:\(tuesday.id)", ref: "2")

            // When Ana corrects Tuesday's set to 95 kg
            _ = try await api.call(
                .patch, "/api/v1/posts/\(tuesday.id)", token: ana,
                body: UpdatePostRequest(workout: WorkoutEditAPITests.squats("Tuesday", [(95, 5)], at: monday + 86_400)))

            // Then both topics hear Tuesday with 95 kg and no record
            func pushed(_ id: PostID, on topic: String) async throws -> Post {
                let frame = try await socket.next {
                    $0.event == "post_updated" && $0.topic == topic && $0.payload["id"]?.stringValue == id.description
                }
                return try WireJSON.decoder().decode(Post.self, from: WireJSON.encoder().encode(frame.payload))
            }
            for topic in ["post:\(tuesday.id)", "feed:\(bea.user.id)"] {
                let post = try await pushed(tuesday.id, on: topic)
                #expect(post.workout?.exercises.first?.sets == [WorkoutSet(weightKg: 95, reps: 5)], "\(topic)")
                #expect(post.personalRecords.isEmpty, "\(topic)")
            }

            // And the feed hears Wednesday, whose 105 kg is the record now
            let later = try await pushed(wednesday.id, on: "feed:\(bea.user.id)")
            #expect(later.personalRecords.contains { $0.kind == .heaviestWeight && $0.value == 105 })
            await socket.close()
        }
    }
}
