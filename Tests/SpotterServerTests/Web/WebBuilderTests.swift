import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app's workout builder")
struct WebBuilderTests {
    @Test(
        "the builder starts from a workout template, and the workout records its lineage",
        arguments: StorageBackend.available)
    func fromTemplate(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given a coach's public template
            let coach = try await api.signup("coach").accessToken
            let created = try await api.call(
                .post, "/api/v1/workout-templates", token: coach,
                body: CreateWorkoutTemplateRequest(
                    name: "Five by five", type: .strength,
                    exercises: [
                        TemplateExercise(
                            name: "Back Squat", targetSets: Array(repeating: TargetSet(weightKg: 80, reps: 5), count: 2)
                        )
                    ], visibility: .public))
            let template = try created.decode(WorkoutTemplate.self)
            var hal = WebBrowser(api)
            try await hal.signUp("hal")
            // When Hal opens the builder, the template is offered; choosing it fills the rows
            let empty = try await hal.get("/compose")
            #expect(empty.text.contains(#"<option value="\#(template.id)">Five by five · coach</option>"#))
            let filled = try await hal.get("/compose?template=\(template.id)")
            #expect(filled.text.contains(#"value="Five by five""#))
            #expect(filled.text.contains(#"value="Back Squat""#))
            #expect(
                filled.text.components(
                    separatedBy: #"name="set_weight" type="number" step="any" min="0" inputmode="decimal" value="80""#
                ).count == 3)
            #expect(filled.text.contains(#"name="template_id" value="\#(template.id)""#))
            // And posting it records which template it came from
            let posted = try await hal.post(
                "/posts",
                [
                    ("kind", "workout"), ("template_id", template.id.description), ("title", "Five by five"),
                    ("type", "strength"), ("exercise_name", "Back Squat"), ("set_exercise", "0"), ("set_weight", "80"),
                    ("set_reps", "5"),
                ])
            #expect(posted.status == .seeOther)
            let uses = try await api.call(.get, "/api/v1/workout-templates/\(template.id)").decode(WorkoutTemplate.self)
            #expect(uses.usesCount == 1)
            #expect(try await hal.get("/compose?template=\(UUID().uuidString.lowercased())").status == .notFound)
        }
    }
}
