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
}
