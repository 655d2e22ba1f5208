import Foundation
import SpotterCore
import SpotterModels
import Testing

/// Streak-at-risk and weekly-summary rules at hand-picked local evenings; no clock runs, no database.
@Suite("Reminder rules")
struct ReminderSweepTests {
    static let zone = "America/Los_Angeles"

    static func at(_ text: String, _ zone: String = zone) -> Date {
        NotificationSchedulerTests.at(text, zone)
    }

    /// A completed hour of squats starting at `start`, with `records` personal records.
    static func workout(_ start: Date, kg: Double = 100, records: Int = 0) -> WorkoutHistoryEntry {
        let record = PersonalRecord(
            exercise: "Back Squat", kind: .heaviestWeight, value: kg, achievedAt: start)
        return WorkoutHistoryEntry(
            performedAt: start,
            workout: WorkoutRecord(
                title: "Squats", type: .strength, startTime: start, endTime: start + 3600,
                exercises: [ExerciseEntry(name: "Back Squat", sets: [WorkoutSet(weightKg: kg, reps: 5)])]),
            records: Array(repeating: record, count: records))
    }

    func due(_ history: [WorkoutHistoryEntry], at evening: Date, zone: String = zone) -> [NotificationType: String] {
        Dictionary(
            uniqueKeysWithValues: ReminderSweep.reminders(history: history, local: LocalTime(zone), evening: evening)
                .map { ($0.type, $0.text) })
    }

    @Test("a two-day streak with nothing today is at risk at 18:00 local; a workout today or a single day is not")
    func streakAtRisk() {
        // Thursday 2026-11-19, Los Angeles.
        let evening = Self.at("2026-11-19 18:00")
        let twoDays = [Self.workout(Self.at("2026-11-17 07:00")), Self.workout(Self.at("2026-11-18 07:00"))]
        #expect(
            due(twoDays, at: evening)[.streakAtRisk]
                == "Your 2-day streak ends tonight. A short workout keeps it going.")
        #expect(due(twoDays + [Self.workout(Self.at("2026-11-19 06:30"))], at: evening).isEmpty)
        #expect(due([Self.workout(Self.at("2026-11-18 07:00"))], at: evening).isEmpty, "one day is not a streak")
        #expect(due(Array(twoDays.prefix(1)), at: evening).isEmpty, "a streak broken yesterday is already over")
    }

    @Test("days are the person's own: a workout late at night in Los Angeles is that day there, not the UTC day")
    func streakInLocalDays() {
        // 23:30 on the 18th in Los Angeles is already the 19th in UTC; the streak (17th, 18th) is still at risk.
        let history = [Self.workout(Self.at("2026-11-17 23:30")), Self.workout(Self.at("2026-11-18 23:30"))]
        #expect(due(history, at: Self.at("2026-11-19 18:00"))[.streakAtRisk] != nil)
        // Read in UTC, the same workouts fall on the 18th and 19th: trained today, nothing at risk.
        #expect(due(history, at: Self.at("2026-11-19 18:00", "UTC"), zone: "UTC")[.streakAtRisk] == nil)
    }

    @Test("Sunday evening sums the week (Monday to now): workouts, time, volume and records")
    func weeklySummary() {
        let sunday = Self.at("2026-11-22 18:00")
        let history = [
            Self.workout(Self.at("2026-11-15 09:00"), kg: 80),  // the Sunday before: last week
            Self.workout(Self.at("2026-11-16 07:00"), kg: 100),
            Self.workout(Self.at("2026-11-19 07:00"), kg: 110, records: 2),
        ]
        let reminders = ReminderSweep.reminders(history: history, local: LocalTime(Self.zone), evening: sunday)
        let summary = reminders.first { $0.type == .weeklySummary }
        #expect(summary?.text == "Your week: 2 workouts, 2 h, 1,050 kg lifted and 2 personal records.")
        #expect(summary?.period == "week-2026-11-16", "keyed by the week's Monday, so it goes once a week")
        #expect(due(history, at: Self.at("2026-11-21 18:00"))[.weeklySummary] == nil, "only on Sunday")
        #expect(due([history[0]], at: sunday)[.weeklySummary] == nil, "no summary of an empty week")
    }
}
