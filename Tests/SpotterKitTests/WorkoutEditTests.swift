import Foundation
import SpotterKit
import SpotterModels
import Testing

/// Correcting a logged workout from the SDK: the compose view model edits it, offline first, through the outbox.
@Suite("Editing a workout with SpotterKit")
struct WorkoutEditTests {
    static let password = "correct horse battery"

    static func squats(_ title: String, _ weight: Double, at start: Date) -> CreatePostRequest {
        CreatePostRequest(
            kind: .workout, text: "Legs",
            workout: WorkoutRecord(
                title: title, type: .strength, startTime: start, endTime: start + 2700,
                exercises: [ExerciseEntry(name: "Back Squat", sets: [WorkoutSet(weightKg: weight, reps: 5)])]))
    }

    @Test(
        "an edit made offline shows on the post at once, waits in the outbox, and lands with the records recomputed")
    func offlineEdit() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's squats, Monday 100 kg and Wednesday 110 kg (a record), the record on her post's screen
            let network = SwitchableNetwork()
            let session = try SpotterSession(
                baseURL: url, folder: nil, tokens: MemoryTokenStore(), transport: network, retry: .none)
            try await session.client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let monday = Date() - 3 * 86_400
            _ = try await session.client.createPost(Self.squats("Monday", 100, at: monday))
            let wednesday = try await session.client.createPost(Self.squats("Wednesday", 110, at: monday + 2 * 86_400))
            #expect(!wednesday.personalRecords.isEmpty)
            let detail = await PostDetailViewModel(postID: wednesday.id, session: session)
            await detail.load()

            // When she opens it for editing
            let model = await ComposeWorkoutViewModel(editing: try #require(await detail.post), session: session)

            // Then the form holds its title, text, times, exercises and sets
            #expect(await model.editing == wednesday.id)
            #expect(await model.title == "Wednesday")
            #expect(await model.text == "Legs")
            #expect(await model.startTime == wednesday.workout?.startTime)
            #expect(await model.endTime == wednesday.workout?.endTime)
            #expect(await model.exercises.map(\.name) == ["Back Squat"])
            #expect(await model.exercises.first?.sets == [WorkoutSet(weightKg: 110, reps: 5)])

            // When, offline, she corrects the set to 100 kg and saves
            network.state = .down
            await MainActor.run {
                model.removeSet(0, from: 0)
                model.addSet(to: 0, weightKg: 100, reps: 5)
            }
            #expect(await model.publish())

            // Then the post shows it at once, marked edited, and the edit waits in the outbox with its key
            try await SpotterSessionTests.eventually {
                await detail.post?.workout?.exercises.first?.sets == [WorkoutSet(weightKg: 100, reps: 5)]
            }
            #expect(await detail.post?.editedAt != nil)
            let waiting = try await session.outbox.pending
            #expect(waiting.count == 1)
            guard case .updatePost(let id, let request) = waiting.first?.action else {
                Issue.record("expected a queued edit, got \(String(describing: waiting.first?.action))")
                return
            }
            #expect(id == wednesday.id)
            #expect(request.workout?.exercises.first?.sets == [WorkoutSet(weightKg: 100, reps: 5)])
            #expect(!(waiting.first?.idempotencyKey.isEmpty ?? true))

            // When the network comes back and the outbox drains (the first answer lost, the retry through)
            network.state = .answerLost
            _ = await session.outbox.drain(ignoringBackoff: true)
            network.state = .up
            _ = await session.outbox.drain(ignoringBackoff: true)

            // Then the server has the edit once, and the screen shows the server's post: no record any more
            #expect(try await session.outbox.pending.isEmpty)
            let server = try await session.client.post(wednesday.id)
            #expect(server.workout?.exercises.first?.sets == [WorkoutSet(weightKg: 100, reps: 5)])
            #expect(server.personalRecords.isEmpty)
            try await SpotterSessionTests.eventually { await detail.post?.personalRecords.isEmpty == true }
        }
    }

    @Test("an edit the server refuses names the field, and the post shows the server's numbers again")
    func refusedEdit() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's workout, open for editing
            let session = try SpotterSession(baseURL: url, folder: nil, tokens: MemoryTokenStore(), retry: .none)
            try await session.client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let post = try await session.client.createPost(Self.squats("Legs", 100, at: Date() - 3600))
            let detail = await PostDetailViewModel(postID: post.id, session: session)
            await detail.load()
            let model = try #require(await detail.editor())

            // When she saves a set of -1 reps
            await MainActor.run { model.addSet(to: 0, weightKg: 100, reps: -1) }
            #expect(await model.publish() == false)

            // Then the field is named, nothing waits, and the post shows what the server has
            #expect(await model.errors.map(\.field) == ["workout.exercises[0].sets[1].reps"])
            #expect(try await session.outbox.pending.isEmpty)
            try await SpotterSessionTests.eventually {
                await detail.post?.workout?.exercises.first?.sets == [WorkoutSet(weightKg: 100, reps: 5)]
            }
        }
    }

    @Test("a post_updated push on the post's topic shows the edit, its records as the server now has them")
    func pushedEdit() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Bea watching Ana's record-setting squats
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            _ = try await ana.createPost(Self.squats("Monday", 100, at: Date() - 2 * 86_400))
            let post = try await ana.createPost(Self.squats("Tuesday", 110, at: Date() - 86_400))
            let session = try SpotterSession(baseURL: url, folder: nil, tokens: MemoryTokenStore(), retry: .none)
            try await session.client.signUp(email: "bea@example.com", username: "bea", password: Self.password)
            let detail = await PostDetailViewModel(postID: post.id, session: session)
            await detail.load()
            #expect(await detail.post?.personalRecords.isEmpty == false)

            // When Ana corrects it and the edit is pushed on the post's topic
            var workout = try #require(post.workout)
            workout.exercises[0].sets = [WorkoutSet(weightKg: 95, reps: 5)]
            let edited = try await ana.updatePost(post.id, UpdatePostRequest(workout: workout))
            await detail.apply(.push(.postUpdated(edited), topic: .post(post.id)))

            // Then her screen shows 95 kg and no record
            #expect(await detail.post?.workout?.exercises.first?.sets == [WorkoutSet(weightKg: 95, reps: 5)])
            #expect(await detail.post?.personalRecords.isEmpty == true)
        }
    }
}
