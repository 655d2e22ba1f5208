import Foundation
import SpotterModels

/// One week of training, for the progress chart.
public struct WeeklyProgress: Sendable, Equatable {
    /// Monday 00:00 in the user's time zone (or the day's first instant, where midnight is skipped by DST).
    public var weekStart: Date
    public var workouts: Int
    /// Total weight moved in the week (``SpotterModels/WorkoutRecord/volumeKg`` summed).
    public var volumeKg: Double

    public init(weekStart: Date, workouts: Int, volumeKg: Double) {
        self.weekStart = weekStart
        self.workouts = workouts
        self.volumeKg = volumeKg
    }
}

/// Runs of consecutive training days, in days.
public struct Streaks: Sendable, Equatable {
    /// The run that is still alive: ending today, or yesterday if there is no workout yet today.
    public var current: Int
    /// The longest run ever, the current one included.
    public var longest: Int

    public init(current: Int, longest: Int) {
        self.current = current
        self.longest = longest
    }
}

/// Weekly totals and streaks, computed in the user's time zone: a workout at 23:30 in Los Angeles belongs to
/// that day and that week there, whatever the UTC date says.
///
/// Weeks are ISO weeks (Monday to Sunday) of a Gregorian calendar. Days and weeks are counted by calendar,
/// never by 86,400-second steps, so a 23- or 25-hour day at a DST change is still one day.
public enum ProgressStats {
    /// The last `weeks` weeks ending with the one `now` falls in, oldest first, with every week present (zero
    /// when nothing was done) so a chart has no gaps. Workouts outside those weeks are left out.
    ///
    /// ```swift
    /// let chart = ProgressStats.weekly(
    ///     workouts: records.map { ($0.startTime, $0.volumeKg) }, timeZone: zone, now: now, weeks: 12)
    /// ```
    public static func weekly(
        workouts: [(start: Date, volumeKg: Double)], timeZone: TimeZone, now: Date, weeks: Int
    ) -> [WeeklyProgress] {
        guard weeks > 0 else { return [] }
        let calendar = isoCalendar(in: timeZone)
        let thisWeek = weekStart(of: now, in: calendar)
        var progress = (0..<weeks).reversed().map { weeksAgo in
            let dayInWeek = calendar.date(byAdding: .day, value: -7 * weeksAgo, to: noon(of: thisWeek, in: calendar))!
            return WeeklyProgress(weekStart: weekStart(of: dayInWeek, in: calendar), workouts: 0, volumeKg: 0)
        }
        let positions = Dictionary(uniqueKeysWithValues: progress.enumerated().map { ($1.weekStart, $0) })
        for workout in workouts {
            guard let position = positions[weekStart(of: workout.start, in: calendar)] else { continue }
            progress[position].workouts += 1
            progress[position].volumeKg += workout.volumeKg
        }
        return progress
    }

    /// The current and longest runs of consecutive days with a workout, days read in the user's time zone.
    ///
    /// Several workouts on one day count once. The current streak ends today, or yesterday when there is no
    /// workout yet today: a streak is not broken until the day is over. Days after today (a clock running
    /// ahead) are ignored, so they can neither keep a streak alive nor lengthen one.
    public static func streaks(workoutDays: [Date], timeZone: TimeZone, now: Date) -> Streaks {
        let calendar = isoCalendar(in: timeZone)
        let today = dayNumber(of: now, in: calendar)
        let days = Set(workoutDays.map { dayNumber(of: $0, in: calendar) }.filter { $0 <= today })

        var longest = 0
        var run = 0
        var previous: Int?
        for day in days.sorted() {
            run = previous == day - 1 ? run + 1 : 1
            longest = max(longest, run)
            previous = day
        }

        var current = 0
        var day = days.contains(today) ? today : today - 1
        while days.contains(day) {
            current += 1
            day -= 1
        }
        return Streaks(current: current, longest: longest)
    }

    /// The main lifts of `workouts` (oldest first): the `limit` exercises done in the most workouts at or after
    /// `since` (ties: the heavier estimate first), each with its best estimated one-rep max per workout, oldest
    /// first. The estimate is the record detector's (Epley, `PersonalRecordDetector.estimatedOneRepMax`).
    public static func mainLifts(
        workouts: [(performedAt: Date, workout: WorkoutRecord)], since: Date, limit: Int = 3
    ) -> [ExerciseProgress] {
        var series: [String: ExerciseProgress] = [:]
        for (performedAt, workout) in workouts where performedAt >= since {
            for lift in PersonalRecordDetector.estimatedOneRepMaxes(in: workout) {
                let point = ExerciseProgress.Point(performedAt: performedAt, estimatedOneRepMaxKg: lift.kg)
                series[lift.key, default: ExerciseProgress(exercise: lift.name, points: [])].points.append(point)
                series[lift.key]?.exercise = lift.name  // as last written
            }
        }
        return series.values.map { lift in
            var lift = lift
            lift.points.sort { $0.performedAt < $1.performedAt }
            return lift
        }
        .sorted {
            let best = { (lift: ExerciseProgress) in lift.points.map(\.estimatedOneRepMaxKg).max() ?? 0 }
            return ($0.points.count, best($0), $1.exercise.lowercased()) > (
                $1.points.count, best($1), $0.exercise.lowercased()
            )
        }
        .prefix(limit).map { $0 }
    }

    /// A Gregorian calendar in `timeZone` whose weeks start on Monday, as ISO 8601 weeks do.
    private static func isoCalendar(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        return calendar
    }

    /// The first instant of the Monday of `date`'s week.
    private static func weekStart(of date: Date, in calendar: Calendar) -> Date {
        let weekday = calendar.component(.weekday, from: date)  // 1 is Sunday, 2 Monday, … 7 Saturday
        let daysSinceMonday = (weekday - calendar.firstWeekday + 7) % 7
        let monday = calendar.date(byAdding: .day, value: -daysSinceMonday, to: noon(of: date, in: calendar))!
        return calendar.startOfDay(for: monday)
    }

    /// Twelve hours into `date`'s day, around noon: stepping whole days from there never lands in a DST gap or
    /// on the wrong side of midnight, as stepping from midnight can.
    private static func noon(of date: Date, in calendar: Calendar) -> Date {
        calendar.startOfDay(for: date).addingTimeInterval(12 * 3600)
    }

    /// A number for `date`'s day in `calendar`, one more for each next day: the local date, read as a UTC date,
    /// in days since 1970.
    private static func dayNumber(of date: Date, in calendar: Calendar) -> Int {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(secondsFromGMT: 0)!
        let midnightUTC = utc.date(from: calendar.dateComponents([.year, .month, .day], from: date))!
        return Int((midnightUTC.timeIntervalSince1970 / 86_400).rounded(.down))
    }
}
