import Foundation
import SpotterCore
import SpotterKit
import SpotterModels
import Testing

/// The client's remaining routes, each against the real server.
@Suite("SpotterClient routes")
struct MoreRoutesTests {
    static let password = "correct horse battery"

    @Test("a comment edited by its author comes back and reads back with its new text and edited_at")
    func editComment() async throws {
        try await LiveServer.runWithStorage(configure: { $0.postRules.newAccountAge = 0 }) { url, _, _ in
            // Given a post by Ana with a comment by Bea
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let bea = SpotterClient(baseURL: url)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: Self.password)
            let post = try await ana.createPost(CreatePostRequest(kind: .note, text: "Leg day"))
            let comment = try await bea.addComment(CreateCommentRequest(text: "Nice sqaut"), on: post.id)
            #expect(comment.editedAt == nil)

            // When Bea fixes the typo
            let edited = try await bea.editComment(comment.id, on: post.id, text: "Nice squat")

            // Then the answer and the list both have the new text, marked edited; Ana may not edit it
            #expect(edited.text == "Nice squat" && edited.editedAt != nil)
            let listed = try await ana.comments(on: post.id).items
            #expect(listed.map(\.text) == ["Nice squat"] && listed.first?.editedAt != nil)
            await #expect(throws: SpotterClientError.self) {
                _ = try await ana.editComment(comment.id, on: post.id, text: "Mine now")
            }
        }
    }

    @Test("follower lists and requests, progress, comment and template deletion, exercises, moderation")
    func routes() async throws {
        try await LiveServer.runWithStorage(configure: { $0.postRules.newAccountAge = 0 }) { url, _, storage in
            let ana = SpotterClient(baseURL: url)
            let anaAccount = try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let bea = SpotterClient(baseURL: url)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: Self.password)
            _ = try await ana.updateProfile(UpdateAccountRequest(privacy: .private))

            // A follow request, approved.
            #expect(try await bea.follow("ana").following == .requested)
            #expect(try await ana.followRequests().items.map(\.username) == ["bea"])
            try await ana.answerFollowRequest(from: "bea", approve: true)
            #expect(try await ana.followers(of: "ana").items.map(\.username) == ["bea"])
            #expect(try await bea.following(of: "bea").items.map(\.username) == ["ana"])

            // Progress from a workout; a comment deleted by its author.
            let start = Date().addingTimeInterval(-7200)
            let workout = try await ana.createPost(
                CreatePostRequest(
                    kind: .workout, text: "",
                    workout: WorkoutRecord(
                        title: "Squats", type: .strength, startTime: start, endTime: start + 3600,
                        exercises: [ExerciseEntry(name: "Back Squat", sets: [WorkoutSet(weightKg: 100, reps: 5)])])))
            let progress = try await bea.progress(of: "ana")
            #expect(progress.weeks.reduce(0) { $0 + $1.workouts } == 1)
            #expect(progress.exercises.map(\.exercise) == ["Back Squat"])
            let estimate: Double = 100 * (1 + 5.0 / 30)  // Epley
            #expect(progress.exercises.first?.points.map(\.estimatedOneRepMaxKg) == [estimate])
            let comment = try await bea.addComment(CreateCommentRequest(text: "Solid"), on: workout.id)
            try await bea.deleteComment(comment.id, on: workout.id)
            #expect(try await ana.comments(on: workout.id).items.isEmpty)

            // Templates: made, listed, read, deleted.
            let exercise = try await ana.createExerciseTemplate(
                CreateExerciseTemplateRequest(name: "Goblet Squat", equipment: "kettlebell", muscleGroups: ["legs"]))
            #expect(try await ana.exerciseTemplates(author: "ana").items.map(\.id) == [exercise.id])
            #expect(try await ana.exerciseTemplate(exercise.id).name == "Goblet Squat")
            try await ana.deleteExerciseTemplate(exercise.id)
            #expect(try await ana.exerciseTemplates(author: "ana").items.isEmpty)
            let plan = try await ana.createWorkoutTemplate(
                CreateWorkoutTemplateRequest(
                    name: "Legs", type: .strength,
                    exercises: [TemplateExercise(name: "Squat", targetSets: [TargetSet(reps: 5)])]))
            try await ana.deleteWorkoutTemplate(plan.id)
            #expect(try await ana.workoutTemplates(author: "ana").items.isEmpty)

            // Moderation needs the admin role, which only the command line grants.
            await #expect(throws: SpotterClientError.self) { try await bea.setFeatured(true, "ana") }
            try await storage.accounts.setRole(anaAccount.id, .admin)
            try await ana.setFeatured(true, "bea")
            try await ana.setSuspended(true, "bea")
            await #expect {
                _ = try await bea.me()
            } throws: { error in
                (error as? SpotterClientError)?.status == 403
            }
            try await ana.setSuspended(false, "bea")
        }
    }

    @Test("who gave kudos: listed for those who see the post, without people blocked")
    func kudosGivers() async throws {
        try await LiveServer.runWithStorage(configure: { $0.postRules.newAccountAge = 0 }) { url, _, _ in
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let bea = SpotterClient(baseURL: url)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: Self.password)
            let cy = SpotterClient(baseURL: url)
            try await cy.signUp(email: "cy@example.com", username: "cyd", password: Self.password)
            let post = try await ana.createPost(CreatePostRequest(kind: .note, text: "Deadlift PR #gym"))
            _ = try await bea.setKudos(true, on: post.id)
            _ = try await cy.setKudos(true, on: post.id)
            #expect(try await ana.kudosGivers(of: post.id).items.map(\.username).sorted() == ["bea", "cyd"])
            // When Ana blocks Cy, Cy is no longer in the list she reads
            _ = try await ana.setBlocked(true, "cyd")
            #expect(try await ana.kudosGivers(of: post.id).items.map(\.username) == ["bea"])
        }
    }
}
