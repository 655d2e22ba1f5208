import Foundation
import SpotterModels

/// Reminders nobody's action triggers, found by sweeping who trained lately at their own local evening:
///
/// - **streak at risk**: at 18:00 local, someone with a run of two or more training days and no workout yet
///   today hears that tonight is the last chance to keep it;
/// - **weekly summary**: at 18:00 local on Sunday, someone who trained that week gets its totals. Its default
///   setting (`weekly`) then carries it in Monday morning's digest.
///
/// Each sweep covers the moments that passed since the previous one, so a sweep every few minutes sends each
/// reminder once; the notifier's dedupe key (the local day, or the week's Monday) makes a repeated or
/// overlapping sweep — two nodes, or a restart that looks back — send nothing twice.
public struct ReminderSweep: Sendable {
    /// Local time of both reminders: late enough to know today has no workout, early enough to do one.
    public static let eveningMinute = 18 * 60
    /// A streak this long is worth a reminder; one day is not yet a streak.
    public static let minimumStreak = 2

    let storage: any SpotterStorage
    let notifier: Notifier

    public init(storage: any SpotterStorage, notifier: Notifier) {
        self.storage = storage
        self.notifier = notifier
    }

    /// Sends the reminders whose local evening fell after `since` and at or before `now`; returns how many
    /// reminders it asked the notifier for (the notifier may still drop one by preference or dedupe).
    @discardableResult
    public func run(since: Date, now: Date) async throws -> Int {
        guard since < now else { return 0 }
        // A streak alive at this evening had a workout yesterday; a week's summary needs one this week.
        let trainers = try await storage.posts.recentTrainers(since: now.addingTimeInterval(-8 * 86_400))
        let due = trainers.compactMap { trainer -> Due? in
            let local = LocalTime(trainer.timeZone)
            let evening = local.previous(minuteOfDay: Self.eveningMinute, atOrBefore: now)
            return evening > since ? Due(trainer: trainer.id, local: local, evening: evening) : nil
        }
        var sent = 0
        // A start looks back hours (`ReminderService.catchUp`): thousands of people's evenings at once. Their
        // histories are read a batch of people at a time, not one read each, which made every start a long
        // burst of reads.
        for start in stride(from: 0, to: due.count, by: Self.historyBatch) {
            let batch = due[start..<min(start + Self.historyBatch, due.count)]
            let histories = try await recentHistories(of: batch)
            for person in batch {
                let history = try await history(of: person, recent: histories[person.trainer] ?? [])
                for reminder in Self.reminders(history: history, local: person.local, evening: person.evening) {
                    await notifier.notify(
                        .reminder(
                            user: person.trainer, type: reminder.type, period: reminder.period, text: reminder.text))
                    sent += 1
                }
            }
        }
        return sent
    }

    /// Someone whose evening fell in the sweep, and when.
    struct Due {
        var trainer: UserID
        var local: LocalTime
        var evening: Date
    }

    /// People whose recent histories one read takes.
    static let historyBatch = 500

    /// Days of history a sweep reads first. Reading everyone's whole history made the first sweep after a
    /// start a burst: the weekly summary needs a week, and a streak only needs more when it runs back to the
    /// start of the window, in which case the whole history is read.
    public static let historyWindowDays = 35
    static let historyWindow = Double(historyWindowDays) * 86_400

    /// Each person's workouts of the window before their evening: one read for the batch, from its earliest
    /// window on, each person's then cut to their own.
    private func recentHistories(of batch: ArraySlice<Due>) async throws -> [UserID: [WorkoutHistoryEntry]] {
        guard let earliest = batch.map(\.evening).min() else { return [:] }
        let histories = try await storage.posts.ownWorkoutHistories(
            of: batch.map(\.trainer), since: earliest.addingTimeInterval(-Self.historyWindow))
        var recent: [UserID: [WorkoutHistoryEntry]] = [:]
        for person in batch {
            let start = person.evening.addingTimeInterval(-Self.historyWindow)
            recent[person.trainer] = histories[person.trainer]?.filter { $0.performedAt >= start }
        }
        return recent
    }

    private func history(of person: Due, recent: [WorkoutHistoryEntry]) async throws -> [WorkoutHistoryEntry] {
        let streak = ProgressStats.streaks(
            workoutDays: recent.map(\.performedAt), timeZone: person.local.timeZone, now: person.evening
        ).current
        guard streak >= Self.historyWindowDays - 2 else { return recent }
        return try await storage.posts.workoutHistory(of: person.trainer, viewer: person.trainer, since: nil)
    }

    /// What one person is due at `evening`, from their workout history: pure, so the rules are tested alone.
    public static func reminders(
        history: [WorkoutHistoryEntry], local: LocalTime, evening: Date
    ) -> [(type: NotificationType, period: String, text: String)] {
        var due: [(NotificationType, String, String)] = []
        let today = local.day(of: evening)
        let streak = ProgressStats.streaks(
            workoutDays: history.map(\.performedAt), timeZone: local.timeZone, now: evening
        ).current
        if streak >= minimumStreak, !history.contains(where: { local.day(of: $0.performedAt) == today }) {
            due.append(
                (.streakAtRisk, today, "Your \(streak)-day streak ends tonight. A short workout keeps it going."))
        }
        if local.isSunday(evening),
            let week = ProgressStats.weekly(
                workouts: history.map { ($0.performedAt, $0.workout?.volumeKg ?? 0) }, timeZone: local.timeZone,
                now: evening, weeks: 1
            ).first, week.workouts > 0
        {
            let thisWeek = history.filter { $0.performedAt >= week.weekStart && $0.performedAt <= evening }
            let seconds = thisWeek.compactMap(\.workout).reduce(0) {
                $0 + Int($1.duration ?? 0)  // untimed workouts add no time
            }
            let records = thisWeek.reduce(0) { $0 + $1.records.count }
            due.append(
                (
                    .weeklySummary, "week-\(local.day(of: week.weekStart))",
                    weeklyText(workouts: week.workouts, seconds: seconds, volumeKg: week.volumeKg, records: records)
                ))
        }
        return due
    }

    /// "Your week: 4 workouts, 3 h 20 min, 12,300 kg lifted and 2 personal records."
    static func weeklyText(workouts: Int, seconds: Int, volumeKg: Double, records: Int) -> String {
        var parts = ["\(workouts) \(workouts == 1 ? "workout" : "workouts")"]
        let minutes = seconds / 60
        if minutes > 0 {
            let hours = minutes >= 60 ? "\(minutes / 60) h" : ""
            let rest = minutes % 60 > 0 ? "\(minutes % 60) min" : ""
            parts.append([hours, rest].filter { !$0.isEmpty }.joined(separator: " "))
        }
        if volumeKg >= 1 { parts.append("\(grouped(Int(volumeKg.rounded()))) kg lifted") }
        if records > 0 { parts.append("\(records) personal \(records == 1 ? "record" : "records")") }
        let list = parts.count == 1 ? parts[0] : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
        return "Your week: \(list)."
    }

    /// 12300 as "12,300", the same on every server whatever its locale.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
