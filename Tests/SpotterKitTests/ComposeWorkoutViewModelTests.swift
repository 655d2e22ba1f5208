import Foundation
import SpotterKit
import SpotterModels
import Testing

@Suite("Compose workout view model")
struct ComposeWorkoutViewModelTests {
    @Test("a workout started from a template is posted with its lineage; a bad set is named by field")
    func fromTemplate() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            let template = try await ana.createWorkoutTemplate(
                CreateWorkoutTemplateRequest(
                    name: "Push day", type: .strength,
                    exercises: [TemplateExercise(name: "Bench Press", targetSets: [TargetSet(weightKg: 80, reps: 5)])]))
            let bea = SpotterClient(baseURL: url)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: "correct horse battery")
            let model = await ComposeWorkoutViewModel(client: bea, outbox: try ActionQueue(path: nil, client: bea))
            await model.start(from: template.id)
            #expect(await model.title == "Push day")
            #expect(await model.exercises.first?.sets == [WorkoutSet(weightKg: 80, reps: 5)])
            await MainActor.run { model.addSet(to: 0, weightKg: 80, reps: -1) }
            #expect(await model.publish() == false)
            #expect(await model.errors.map(\.field) == ["workout.exercises[0].sets[1].reps"])
            await MainActor.run {
                model.removeSet(1, from: 0)
                model.addSet(to: 0, weightKg: 82.5, reps: 5)
            }
            #expect(await model.publish())
            let posted = try #require(try await bea.feed(.user("bea")).items.first)
            #expect(posted.workout?.templateID == template.id)
            #expect(posted.workout?.exercises.first?.sets?.map(\.weightKg) == [80, 82.5])
            #expect(try await ana.workoutTemplate(template.id).usesCount == 1)
        }
    }

    @Test("minutes end when the workout was done, never after it; taking them away keeps that moment")
    func minutes() async throws {
        let client = SpotterClient(baseURL: URL(string: "http://127.0.0.1:9")!)
        let done = Date(timeIntervalSince1970: 1_800_000_000)
        let model = await ComposeWorkoutViewModel(client: client, now: done)
        // Given a workout done at `done` with no duration, when it is said to have taken 45 minutes
        await model.setMinutes(45)
        // Then it began 45 minutes before and ended then
        #expect(await model.startTime == done - 45 * 60)
        #expect(await model.endTime == done)
        // And 30 minutes instead still end then; none leaves the moment it was done
        await model.setMinutes(30)
        #expect(await (model.startTime, model.endTime) == (done - 30 * 60, done))
        await model.setMinutes(nil)
        #expect(await model.startTime == done)
        #expect(await model.endTime == nil)
    }

    @Test("a workout with photos is posted through the upload queue, with alt text, and its progress reaches 1")
    func withPhotos() async throws {
        try await UploadQueueTests.withServer { url, _ in
            // Given Bea composing a run with two photos, one of which she took back, and alt text on the other
            let bea = SpotterClient(baseURL: url)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: "correct horse battery")
            let uploads = UploadQueue(database: try AppDatabase(path: nil), client: bea)
            let model = await ComposeWorkoutViewModel(client: bea, uploads: uploads)
            let jpeg = try UploadQueueTests.jpeg()
            await MainActor.run {
                model.type = .cardio
                model.title = "Easy 5k"
                model.addExercise("Run")
                model.setCardio(for: 0, distance: 5, durationS: 28 * 60)
                model.addPhoto(jpeg, contentType: "image/jpeg")
                model.addPhoto(jpeg, contentType: "image/jpeg", description: "Blurry")
                model.removePhoto(1)
                model.setDescription("Sunrise over the river", forPhoto: 0)
            }
            #expect(await model.photos.count == 1)

            // When she publishes
            #expect(await model.publish())

            // Then the workout carries the photo with its alt text, and the progress says it is posted
            let posted = try #require(try await bea.feed(.user("bea")).items.first)
            #expect(posted.workout?.title == "Easy 5k")
            #expect(posted.media.map(\.description) == ["Sunrise over the river"])
            let progress = try #require(await model.uploadProgress)
            #expect(progress.fraction == 1)
            #expect(progress.step == .posted(posted))
            #expect(try await uploads.pending.isEmpty)
        }
    }

    @Test("a photo the server refuses is named under photos, and the form can be fixed and posted")
    func refusedPhoto() async throws {
        try await UploadQueueTests.withServer { url, _ in
            let bea = SpotterClient(baseURL: url)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: "correct horse battery")
            let model = await ComposeWorkoutViewModel(client: bea)
            await MainActor.run {
                model.title = "Bench"
                model.addExercise("Bench Press")
                model.addSet(to: 0, weightKg: 60, reps: 8)
                model.addPhoto(Data("not a photo".utf8), contentType: "image/jpeg")
            }
            #expect(await model.publish() == false)
            #expect(await model.errors.map(\.field) == ["photos"])
            #expect(await model.errors.first?.detail.hasPrefix("Photo 1 was refused: ") == true)
            #expect(try await bea.feed(.user("bea")).items.isEmpty)
            await MainActor.run { model.removePhoto(0) }
            #expect(await model.publish())
            #expect(await model.errors.isEmpty)
        }
    }

    @Test("a post takes at most four photos")
    func fourPhotos() async throws {
        let model = await ComposeWorkoutViewModel(client: SpotterClient(baseURL: URL(string: "http://127.0.0.1:9")!))
        let added = await MainActor.run { (0..<5).map { _ in model.addPhoto(Data([1]), contentType: "image/jpeg") } }
        #expect(added == [true, true, true, true, false])
        #expect(await model.photos.count == 4)
    }
}
