import Foundation
import HTTPTypes
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Exercise and workout templates over HTTP")
struct TemplatesAPITests {
    @Test(
        "templates are made, used by others, counted by lineage, and kept private when asked",
        arguments: StorageBackend.available)
    func lineage(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given a coach's exercise and a workout template built on it
            let coach = try await api.user("coach")
            let squat = try await api.call(
                .post, "/api/v1/exercises", token: coach,
                body: CreateExerciseTemplateRequest(
                    name: "Back Squat", equipment: "barbell", muscleGroups: ["Quads", "glutes"],
                    format: ["weight", "reps", "rpe"])
            ).decode(ExerciseTemplate.self)
            #expect(squat.muscleGroups == ["quads", "glutes"])
            let plan = try await api.call(
                .post, "/api/v1/workout-templates", token: coach,
                body: CreateWorkoutTemplateRequest(
                    name: "5x5", type: .strength,
                    exercises: [
                        TemplateExercise(
                            name: "Back Squat", exerciseID: squat.id,
                            targetSets: Array(repeating: TargetSet(weightKg: 100, reps: 5), count: 5))
                    ])
            ).decode(WorkoutTemplate.self)
            #expect(plan.usesCount == 0)
            // When two athletes log workouts from it, one of them privately
            for (name, visibility) in [("ana", Visibility.public), ("bea", .private)] {
                let token = try await api.user(name)
                let workout = WorkoutRecord(
                    title: "5x5 day", type: .strength, startTime: api.clock.now - 3600, endTime: api.clock.now,
                    exercises: [
                        ExerciseEntry(
                            name: "Back Squat", exerciseID: squat.id, sets: [WorkoutSet(weightKg: 80, reps: 5)])
                    ],
                    templateID: plan.id)
                let response = try await api.call(
                    .post, "/api/v1/posts", token: token,
                    body: CreatePostRequest(kind: .workout, visibility: visibility, workout: workout))
                #expect(response.status == .created)
            }
            // Then the lineage shows what each viewer may see
            #expect(
                try await api.call(.get, "/api/v1/workout-templates/\(plan.id)").decode(WorkoutTemplate.self).usesCount
                    == 1)
            let list = try await api.call(.get, "/api/v1/workout-templates?author=coach").decode(
                Page<WorkoutTemplate>.self)
            #expect(list.items.map(\.id) == [plan.id])
            #expect(try await api.call(.get, "/api/v1/exercises").decode(Page<ExerciseTemplate>.self).items.count == 1)
            // A private template is the author's alone, and can't be used by others
            let secret = try await api.call(
                .post, "/api/v1/workout-templates", token: coach,
                body: CreateWorkoutTemplateRequest(
                    name: "Secret", type: .amrap,
                    exercises: [TemplateExercise(name: "Burpees", targetSets: [TargetSet(reps: 20)])],
                    visibility: .private)
            ).decode(WorkoutTemplate.self)
            let ana = try await api.signin("ana").decode(TokenResponse.self).accessToken
            #expect(try await api.call(.get, "/api/v1/workout-templates/\(secret.id)", token: ana).status == .notFound)
            let borrowed = WorkoutRecord(
                title: "x", type: .amrap, startTime: api.clock.now - 60, endTime: api.clock.now,
                exercises: [ExerciseEntry(name: "Burpees", sets: [WorkoutSet(weightKg: 0, reps: 20)])],
                templateID: secret.id)
            let refused = try await api.call(
                .post, "/api/v1/posts", token: ana, body: CreatePostRequest(kind: .workout, workout: borrowed))
            #expect(try refused.problem().errors?.first?.field == "workout.template_id")
            // Only the author deletes
            #expect(
                try await api.call(.delete, "/api/v1/workout-templates/\(plan.id)", token: ana).status == .forbidden)
            #expect(
                try await api.call(.delete, "/api/v1/workout-templates/\(plan.id)", token: coach).status == .noContent)
            #expect(try await api.call(.get, "/api/v1/workout-templates/\(plan.id)").status == .notFound)
        }
    }

    @Test("bad templates are refused naming the field", arguments: StorageBackend.available)
    func validation(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let coach = try await api.user("coach")
            let bad = try await api.call(
                .post, "/api/v1/exercises", token: coach,
                body: CreateExerciseTemplateRequest(name: " ", format: ["weight", "mood"]))
            #expect(Set(try bad.problem().errors?.map(\.field) ?? []) == ["name", "format"])
            let badPlan = try await api.call(
                .post, "/api/v1/workout-templates", token: coach,
                body: CreateWorkoutTemplateRequest(
                    name: "Plan", type: .strength,
                    exercises: [
                        TemplateExercise(
                            name: "Squat", exerciseID: ExerciseTemplateID.generate(),
                            targetSets: [TargetSet(reps: -1), TargetSet(reps: 0), TargetSet(reps: 1)])
                    ]))
            #expect(
                Set(try badPlan.problem().errors?.map(\.field) ?? [])
                    == [
                        "exercises[0].exercise_id", "exercises[0].target_sets[0].reps",
                        "exercises[0].target_sets[1].reps",
                    ])
        }
    }
}
