import Foundation
import SpotterCore
import SpotterModels

/// A logged workout on its edit page: the builder drawn from it, and the workout the saved builder says.
///
/// The page draws numbers rounded for reading (two decimals, in the viewer's units, to the minute), so a
/// field saved as it was drawn keeps the stored value, and what the builder has no field for (notes, whether
/// it was completed, its template, each exercise's template) stays as it was: saving the page unchanged
/// changes nothing, and no record moves for a rounding.
struct WorkoutEdit {
    let original: WorkoutRecord
    let units: Units
    let timeZone: TimeZone

    /// The builder as the page draws it.
    var drawn: WorkoutDraft { WorkoutDraft(workout: original, text: "", units: units, timeZone: timeZone) }

    /// Whether a posted form carries the builder (an older page, or a script, sends the title alone).
    static func hasBuilder(_ form: WebForm) -> Bool { !form.all("exercise_name").isEmpty }

    /// The form read as the builder reads it, with what is wrong with its shape named by input; its request's
    /// workout is the edited one, unless something is wrong.
    func read(_ form: WebForm, now: Date) -> (form: WorkoutForm, workout: WorkoutRecord?) {
        let draft = WorkoutDraft(form: form, units: units)
        let checked = WorkoutForm(draft, units: units, timeZone: timeZone, now: now)
        guard var workout = checked.request?.workout else { return (checked, nil) }
        if draft.doneAt == drawn.doneAt, draft.minutes == drawn.minutes {
            workout.startTime = original.startTime
            workout.endTime = original.endTime
        }
        workout.notes = original.notes
        workout.completed = original.completed
        workout.templateID = original.templateID
        for index in workout.exercises.indices {
            guard let before = original.exercises.first(where: { $0.name == workout.exercises[index].name }) else {
                continue
            }
            workout.exercises[index].exerciseID = before.exerciseID
            workout.exercises[index].sets = workout.exercises[index].sets.map { sets in
                sets.map { set in keptWeight(set, from: before.sets ?? []) }
            }
            if var cardio = workout.exercises[index].cardio, let metres = before.cardio?.distanceM,
                let typed = cardio.distanceM, shown(metres: typed) == shown(metres: metres)
            {
                cardio.distanceM = metres
                workout.exercises[index].cardio = cardio
            }
        }
        return (checked, workout)
    }

    /// The set with the stored weight it was drawn from, when the weight typed reads the same as one of the
    /// exercise's logged sets drawn.
    private func keptWeight(_ set: WorkoutSet, from logged: [WorkoutSet]) -> WorkoutSet {
        var set = set
        if let same = logged.first(where: { shown(kg: $0.weightKg) == shown(kg: set.weightKg) }) {
            set.weightKg = same.weightKg
        }
        return set
    }

    private func shown(kg: Double) -> String { CardioText.number(units.value(ofKilograms: kg)) }
    private func shown(metres: Double) -> String { CardioText.number(metres / units.distance.metres) }
}
