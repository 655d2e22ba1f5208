import Foundation
import SpotterModels

/// The workout builder's rows as the compose template draws them: empty, or filled from a workout template.
struct WorkoutBuilderView {
    struct Exercise {
        let index: Int
        let number: Int
        let name: String
        let sets: [SetRow]
    }

    struct SetRow {
        let exerciseIndex: Int
        let exerciseNumber: Int
        let number: Int
        let weight: String
        let reps: String
    }

    struct TemplateChoice {
        let id: String
        let name: String
        let selected: Bool
    }

    let title: String
    let templateID: String?
    let types: [TemplateChoice]
    let exercises: [Exercise]
    let templates: [TemplateChoice]
    let hasTemplates: Bool

    init(template: WorkoutTemplate?, available: [WorkoutTemplate]) {
        title = template?.name ?? ""
        templateID = template?.id.description
        types = WorkoutType.allCases.map {
            TemplateChoice(id: $0.rawValue, name: $0.rawValue.capitalized, selected: $0 == template?.type)
        }
        let entries = template?.exercises.map { ($0.name, $0.targetSets) } ?? [("", [TargetSet()])]
        exercises = entries.enumerated().map { index, entry in
            let targets = entry.1.isEmpty ? [TargetSet()] : entry.1
            return Exercise(
                index: index, number: index + 1, name: entry.0,
                sets: targets.enumerated().map { number, target in
                    SetRow(
                        exerciseIndex: index, exerciseNumber: index + 1, number: number + 1,
                        weight: target.weightKg.map { $0.rounded() == $0 ? String(Int($0)) : String($0) } ?? "",
                        reps: target.reps.map(String.init) ?? "")
                })
        }
        templates = available.map {
            TemplateChoice(
                id: $0.id.description, name: "\($0.name) · \($0.author.displayName)", selected: $0.id == template?.id)
        }
        hasTemplates = !available.isEmpty
    }
}

extension Optional {
    /// `map` for an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
