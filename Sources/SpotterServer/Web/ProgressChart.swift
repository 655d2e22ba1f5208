import Foundation
import SpotterModels

/// A bar chart of weekly training volume, with the workout count over each bar, drawn as inline SVG by the
/// `progress_chart` template from these numbers (no script, so it shows with JavaScript off and in
/// screenshots).
struct ProgressChart {
    struct Bar {
        let x: Int
        let y: Int
        let width: Int
        let height: Int
        let labelX: Int
        let label: String
        let workouts: Int
        let hasWorkouts: Bool
        let title: String
    }

    static let width = 640
    static let height = 220
    static let plotTop = 24
    static let plotBottom = 190

    let bars: [Bar]
    let summary: String
    let maxLabel: String
    let width = ProgressChart.width
    let height = ProgressChart.height
    let baseline = ProgressChart.plotBottom
    let currentStreak: Int
    let longestStreak: Int

    init(_ report: ProgressReport) {
        let weeks = report.weeks
        let top = max(weeks.map(\.volumeKg).max() ?? 0, 1)
        let slot = weeks.isEmpty ? Self.width : Self.width / weeks.count
        let barWidth = max(slot - 8, 4)
        let plotHeight = Double(Self.plotBottom - Self.plotTop)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: report.timeZone) ?? TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMM"
        bars = weeks.enumerated().map { index, week in
            let height = Int((week.volumeKg / top * plotHeight).rounded())
            let label = formatter.string(from: week.weekStart)
            return Bar(
                x: index * slot + 4, y: Self.plotBottom - height, width: barWidth, height: height,
                labelX: index * slot + slot / 2, label: label, workouts: week.workouts, hasWorkouts: week.workouts > 0,
                title: "Week of \(label): \(week.workouts) workouts, \(WebFormat.kilograms(week.volumeKg))")
        }
        let total = weeks.reduce(0) { $0 + $1.workouts }
        summary = "\(total) workout\(total == 1 ? "" : "s") in the last \(weeks.count) weeks"
        maxLabel = WebFormat.kilograms(top)
        currentStreak = report.currentStreak
        longestStreak = report.longestStreak
    }
}
