import Foundation
import SpotterModels

/// Creating, listing and deleting exercise and workout templates.
public struct TemplateService: Sendable {
    public static let formats: Set<String> = ["weight", "reps", "rpe", "set_type", "distance", "duration"]

    let storage: any SpotterStorage
    let clock: any WallClock
    /// Who exists for whom, asked before listing a person's templates.
    let social: SocialService

    /// `social` is the composition root's; tools that pass none get one that tells nobody.
    public init(storage: any SpotterStorage, clock: any WallClock, social: SocialService? = nil) {
        self.storage = storage
        self.clock = clock
        self.social = social ?? SocialService(storage: storage, clock: clock)
    }

    // MARK: Exercises

    public func createExercise(
        _ request: CreateExerciseTemplateRequest, author: AccountRecord
    ) async throws
        -> ExerciseTemplate
    {
        let record = try exerciseRecord(request, id: .generate(at: clock.now), author: author, createdAt: clock.now)
        try await storage.templates.insertExercise(record)
        return try await exercise(record.id, viewer: author)
    }

    /// Replaces the author's own exercise template by the rules a new one follows (a newer version of a
    /// template that came from Nostr); its id and creation time stay.
    public func updateExercise(
        _ id: ExerciseTemplateID, with request: CreateExerciseTemplateRequest, author: AccountRecord
    ) async throws -> ExerciseTemplate {
        let current = try await exercise(id, viewer: author)
        guard current.author.id == author.id else {
            throw SpotterError.forbidden("Only the template's author can change it.")
        }
        let record = try exerciseRecord(request, id: id, author: author, createdAt: current.createdAt)
        try await storage.templates.updateExercise(record)
        return try await exercise(id, viewer: author)
    }

    private func exerciseRecord(
        _ request: CreateExerciseTemplateRequest, id: ExerciseTemplateID, author: AccountRecord, createdAt: Date
    ) throws -> ExerciseTemplateRecord {
        var problems: [FieldError] = []
        let name = TextInput.check(request.name, "name", into: &problems)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if !TextLength.isName(request.name, maxLength: 100) {
            problems.append(.init(field: "name", detail: "must be 1 to 100 characters"))
        }
        let equipment = request.equipment.map { TextInput.check($0, "equipment", into: &problems) }
        if (equipment?.textLength ?? 0) > 100 {
            problems.append(.init(field: "equipment", detail: "must be at most 100 characters"))
        }
        let given = request.muscleGroups ?? []
        let groups = given.enumerated().map { index, group in
            TextInput.check(group, "muscle_groups[\(index)]", into: &problems)
                .trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        }
        if given.count > 20 || given.contains(where: { !TextLength.isName($0, maxLength: 50) }) {
            problems.append(.init(field: "muscle_groups", detail: "must be at most 20 names of 1 to 50 characters"))
        }
        let format = (request.format ?? ["weight", "reps", "set_type"]).enumerated().map { index, field in
            TextInput.check(field, "format[\(index)]", into: &problems)
        }
        if format.isEmpty || !Set(format).isSubset(of: Self.formats) {
            problems.append(
                .init(field: "format", detail: "must list fields from \(Self.formats.sorted().joined(separator: ", "))")
            )
        }
        if request.visibility == .group {
            problems.append(.init(field: "visibility", detail: "must be public, followers or private for a template"))
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        return ExerciseTemplateRecord(
            id: id, authorID: author.id, name: name, equipment: equipment, muscleGroups: groups, format: format,
            visibility: request.visibility ?? .public, createdAt: createdAt)
    }

    public func exercise(_ id: ExerciseTemplateID, viewer: AccountRecord?) async throws -> ExerciseTemplate {
        guard let template = try await storage.templates.exercise(id, viewer: viewer?.id) else {
            throw SpotterError.notFound("No such exercise.")
        }
        return template
    }

    public func exercises(
        viewer: AccountRecord?, author username: String?, page: PageRequest
    ) async throws
        -> Page<ExerciseTemplate>
    {
        let author = try await authorID(username, viewer: viewer)
        let items = try await storage.templates.exercises(
            viewer: viewer?.id, author: author, before: page.cursor.map(ExerciseTemplateID.init), limit: page.limit + 1)
        return page.page(items) { $0.id.rawValue }
    }

    public func deleteExercise(_ id: ExerciseTemplateID, viewer: AccountRecord) async throws {
        let template = try await exercise(id, viewer: viewer)
        try Self.requireOwner(template.author.id, viewer)
        try await storage.templates.tombstoneExercise(id, at: clock.now)
    }

    // MARK: Workout templates

    public func createWorkoutTemplate(
        _ request: CreateWorkoutTemplateRequest, author: AccountRecord
    ) async throws
        -> WorkoutTemplate
    {
        let record = try await workoutTemplateRecord(
            request, id: .generate(at: clock.now), author: author, createdAt: clock.now)
        try await storage.templates.insertWorkoutTemplate(record)
        return try await workoutTemplate(record.id, viewer: author)
    }

    /// Replaces the author's own workout template by the rules a new one follows (a newer version of a
    /// template that came from Nostr); its id, creation time and lineage stay.
    public func updateWorkoutTemplate(
        _ id: WorkoutTemplateID, with request: CreateWorkoutTemplateRequest, author: AccountRecord
    ) async throws -> WorkoutTemplate {
        let current = try await workoutTemplate(id, viewer: author)
        guard current.author.id == author.id else {
            throw SpotterError.forbidden("Only the template's author can change it.")
        }
        let record = try await workoutTemplateRecord(request, id: id, author: author, createdAt: current.createdAt)
        try await storage.templates.updateWorkoutTemplate(record)
        return try await workoutTemplate(id, viewer: author)
    }

    private func workoutTemplateRecord(
        _ request: CreateWorkoutTemplateRequest, id: WorkoutTemplateID, author: AccountRecord, createdAt: Date
    ) async throws -> WorkoutTemplateRecord {
        var problems: [FieldError] = []
        let name = TextInput.check(request.name, "name", into: &problems)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if !TextLength.isName(request.name, maxLength: 100) {
            problems.append(.init(field: "name", detail: "must be 1 to 100 characters"))
        }
        let description = TextInput.check(request.description ?? "", "description", as: .lines, into: &problems)
        if description.textLength > 2000 {
            problems.append(.init(field: "description", detail: "must be at most 2000 characters"))
        }
        if !(1...50).contains(request.exercises.count) {
            problems.append(.init(field: "exercises", detail: "must list 1 to 50 exercises"))
        }
        for (index, exercise) in request.exercises.enumerated() {
            let path = "exercises[\(index)]"
            _ = TextInput.check(exercise.name, "\(path).name", into: &problems)
            if !TextLength.isName(exercise.name, maxLength: 100) {
                problems.append(.init(field: "\(path).name", detail: "must be 1 to 100 characters"))
            }
            if exercise.targetSets.count > 50 {
                problems.append(.init(field: "\(path).target_sets", detail: "must be at most 50 sets"))
            }
            for (setIndex, set) in exercise.targetSets.enumerated() {
                if let weight = set.weightKg, !(0...2000).contains(weight) {
                    problems.append(
                        .init(field: "\(path).target_sets[\(setIndex)].weight_kg", detail: "must be 0 to 2000"))
                }
                // A target has the reps a logged set may have; no target leaves reps out.
                if let reps = set.reps, !PostRules.setReps.contains(reps) {
                    problems.append(
                        .init(
                            field: "\(path).target_sets[\(setIndex)].reps",
                            detail: "must be \(PostRules.setRepsText), or left out for no target"))
                }
            }
            if let exerciseID = exercise.exerciseID,
                try await storage.templates.exercise(exerciseID, viewer: author.id) == nil
            {
                problems.append(.init(field: "\(path).exercise_id", detail: "is not an exercise you can use"))
            }
        }
        if request.visibility == .group {
            problems.append(.init(field: "visibility", detail: "must be public, followers or private for a template"))
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        return WorkoutTemplateRecord(
            id: id, authorID: author.id, name: name, type: request.type, description: description,
            exercises: request.exercises, visibility: request.visibility ?? .public, createdAt: createdAt)
    }

    public func workoutTemplate(_ id: WorkoutTemplateID, viewer: AccountRecord?) async throws -> WorkoutTemplate {
        guard let template = try await storage.templates.workoutTemplate(id, viewer: viewer?.id) else {
            throw SpotterError.notFound("No such workout template.")
        }
        return template
    }

    public func workoutTemplates(
        viewer: AccountRecord?, author username: String?, page: PageRequest
    ) async throws
        -> Page<WorkoutTemplate>
    {
        let author = try await authorID(username, viewer: viewer)
        let items = try await storage.templates.workoutTemplates(
            viewer: viewer?.id, author: author, before: page.cursor.map(WorkoutTemplateID.init), limit: page.limit + 1)
        return page.page(items) { $0.id.rawValue }
    }

    public func deleteWorkoutTemplate(_ id: WorkoutTemplateID, viewer: AccountRecord) async throws {
        let template = try await workoutTemplate(id, viewer: viewer)
        try Self.requireOwner(template.author.id, viewer)
        try await storage.templates.tombstoneWorkoutTemplate(id, at: clock.now)
    }

    private func authorID(_ username: String?, viewer: AccountRecord?) async throws -> UserID? {
        guard let username = try username.map({ try TextInput.checked($0, field: "author") }) else { return nil }
        return try await social.visibleAccount(username, viewer: viewer).id
    }

    private static func requireOwner(_ owner: UserID, _ viewer: AccountRecord) throws {
        guard owner == viewer.id || viewer.role == .admin else {
            throw SpotterError.forbidden("Only the template's author can delete it.")
        }
    }
}
