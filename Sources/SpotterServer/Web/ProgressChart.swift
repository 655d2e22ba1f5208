import Foundation
import SpotterModels

/// What the profile's progress section shows: workouts per week as bars whose height is the number written on
/// them, and the main lifts' estimated one-rep max over the same weeks, each a small line. The bars are HTML
/// (their text stays readable at any width); the lines are inline SVG with a sentence for screen readers. No
/// script: it shows with JavaScript off and in screenshots.
struct ProgressChart {
    struct Bar {
        /// Percent of the plot's height: the week's workouts over the busiest week's; `top` is 100 minus it,
        /// where the bar's `rect` starts (SVG attributes: the CSP allows no inline style).
        let heightPercent: Int
        let top: Int
        let label: String
        let workouts: Int
        let title: String
    }

    struct Lift {
        let exercise: String
        /// "142.5 kg", the latest estimate, and the best over the weeks.
        let latest: String
        let best: String
        /// The line's points in a 0…100 × 0…40 box, for an SVG `polyline`; one workout draws a level line.
        let points: String
        let summary: String
    }

    let bars: [Bar]
    let isEmpty: Bool
    let summary: String
    let weeksCount: Int
    let currentStreak: Int
    let longestStreak: Int
    let lifts: [Lift]
    let hasLifts: Bool
    let unitsName: String

    /// - Parameter units: the viewer's, for the lifts' weights.
    init(_ report: ProgressReport, units: Units = .kg) {
        let weeks = report.weeks
        let busiest = max(weeks.map(\.workouts).max() ?? 0, 1)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: report.timeZone) ?? TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMM"
        bars = weeks.map { week in
            let label = formatter.string(from: week.weekStart)
            let height = week.workouts * 100 / busiest
            return Bar(
                heightPercent: height, top: 100 - height, label: label, workouts: week.workouts,
                title: "Week of \(label): \(Plural.count(week.workouts, "workout"))"
                    + (week.volumeKg > 0 ? ", \(Self.weight(week.volumeKg, units)) lifted" : ""))
        }
        let total = weeks.reduce(0) { $0 + $1.workouts }
        isEmpty = total == 0
        weeksCount = weeks.count
        summary = "\(Plural.count(total, "workout")) in the last \(Plural.count(weeks.count, "week"))"
        currentStreak = report.currentStreak
        longestStreak = report.longestStreak
        lifts = report.exercises.map { Self.lift($0, units: units, formatter: formatter) }
        hasLifts = !lifts.isEmpty
        unitsName = units.rawValue
    }

    private static func lift(_ progress: ExerciseProgress, units: Units, formatter: DateFormatter) -> Lift {
        let values = progress.points.map(\.estimatedOneRepMaxKg)
        let low = values.min() ?? 0
        let high = values.max() ?? 0
        let span = max(high - low, 1)
        let step = values.count > 1 ? 100 / Double(values.count - 1) : 0
        var points = values.enumerated().map { index, value in
            String(format: "%.1f,%.1f", Double(index) * step, 36 - (value - low) / span * 32)
        }
        if points.count == 1 { points.append(String(format: "100,%.1f", 36 - (values[0] - low) / span * 32)) }
        let first = progress.points.first
        let last = progress.points.last
        let summary =
            if let first, let last, progress.points.count > 1 {
                "\(progress.exercise), estimated one-rep max: \(weight(first.estimatedOneRepMaxKg, units)) on "
                    + "\(formatter.string(from: first.performedAt)), \(weight(last.estimatedOneRepMaxKg, units)) on "
                    + "\(formatter.string(from: last.performedAt)), best \(weight(high, units))."
            } else {
                "\(progress.exercise), estimated one-rep max: \(weight(high, units))."
            }
        return Lift(
            exercise: progress.exercise, latest: weight(last?.estimatedOneRepMaxKg ?? 0, units),
            best: weight(high, units), points: points.joined(separator: " "), summary: summary)
    }

    /// Kilograms in `units`, to half a unit: "142.5 kg", "315 lb".
    static func weight(_ kg: Double, _ units: Units) -> String {
        let value = units == .lb ? kg / 0.45359237 : kg
        if value >= 10_000 { return String(format: "%.1f %@", value / 1000, units == .lb ? "k lb" : "t") }
        let rounded = (value * 2).rounded() / 2
        let number = rounded == rounded.rounded() ? "\(Int(rounded))" : String(format: "%.1f", rounded)
        return "\(number) \(units.rawValue)"
    }
}
