import Foundation
import SpotterCore
import Testing

/// A wall-clock time in a time zone, as the user would read it.
private func at(_ zone: String, _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone)!
    return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
}

private func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier)! }

@Suite("Weekly progress")
struct WeeklyProgressTests {
    @Test("the last weeks end with the current one, oldest first, with empty weeks filled with zeros")
    func zeroFilledOldestFirst() {
        // Given a Wednesday, and workouts in the window, before it and after it
        let now = at("UTC", 2024, 3, 13, 10)
        let workouts: [(start: Date, volumeKg: Double)] = [
            (at("UTC", 2024, 2, 18, 23, 59), 999),  // Sunday before the window
            (at("UTC", 2024, 2, 20, 18), 1000),
            (at("UTC", 2024, 3, 5, 7), 500),
            (at("UTC", 2024, 3, 10, 23, 59), 700),  // Sunday: still the week of 4 March
            (at("UTC", 2024, 3, 11, 0), 300),  // Monday 00:00: the current week
            (at("UTC", 2024, 3, 18, 9), 999),  // next week
        ]
        // When
        let weeks = ProgressStats.weekly(workouts: workouts, timeZone: zone("UTC"), now: now, weeks: 4)
        // Then
        #expect(
            weeks == [
                WeeklyProgress(weekStart: at("UTC", 2024, 2, 19, 0), workouts: 1, volumeKg: 1000),
                WeeklyProgress(weekStart: at("UTC", 2024, 2, 26, 0), workouts: 0, volumeKg: 0),
                WeeklyProgress(weekStart: at("UTC", 2024, 3, 4, 0), workouts: 2, volumeKg: 1200),
                WeeklyProgress(weekStart: at("UTC", 2024, 3, 11, 0), workouts: 1, volumeKg: 300),
            ])
    }

    @Test("asking for no weeks gives none")
    func noWeeks() {
        let workouts: [(start: Date, volumeKg: Double)] = [(at("UTC", 2024, 3, 13, 9), 100)]
        #expect(
            ProgressStats.weekly(workouts: workouts, timeZone: zone("UTC"), now: at("UTC", 2024, 3, 13, 10), weeks: 0)
                == [])
    }

    @Test("weeks start on Monday in the user's time zone, even when the UTC date is still Sunday")
    func localWeeks() {
        // Given Auckland (UTC+13 in March): Monday 08:00 there is Sunday 19:00 UTC
        let auckland = zone("Pacific/Auckland")
        let workouts: [(start: Date, volumeKg: Double)] = [
            (at("Pacific/Auckland", 2024, 3, 4, 8), 400),
            (at("Pacific/Auckland", 2024, 3, 3, 23, 30), 200),
        ]
        // When
        let weeks = ProgressStats.weekly(
            workouts: workouts, timeZone: auckland, now: at("Pacific/Auckland", 2024, 3, 6, 12), weeks: 2)
        // Then
        #expect(
            weeks == [
                WeeklyProgress(weekStart: at("UTC", 2024, 2, 25, 11), workouts: 1, volumeKg: 200),
                WeeklyProgress(weekStart: at("UTC", 2024, 3, 3, 11), workouts: 1, volumeKg: 400),
            ])
    }

    @Test("a week that loses an hour to DST still starts at local midnight and ends at the next")
    func springForward() {
        // Given Berlin, whose clocks go forward on Sunday 31 March 2024
        let workouts: [(start: Date, volumeKg: Double)] = [
            (at("Europe/Berlin", 2024, 3, 31, 23, 30), 100),  // 21:30 UTC
            (at("Europe/Berlin", 2024, 4, 1, 0, 30), 200),  // 22:30 UTC on 31 March
        ]
        // When
        let weeks = ProgressStats.weekly(
            workouts: workouts, timeZone: zone("Europe/Berlin"), now: at("Europe/Berlin", 2024, 4, 1, 12), weeks: 2)
        // Then
        #expect(
            weeks == [
                WeeklyProgress(weekStart: at("UTC", 2024, 3, 24, 23), workouts: 1, volumeKg: 100),
                WeeklyProgress(weekStart: at("UTC", 2024, 3, 31, 22), workouts: 1, volumeKg: 200),
            ])
    }

    @Test("a week that gains an hour to DST still starts at local midnight and ends at the next")
    func fallBack() {
        // Given New York, whose clocks go back on Sunday 3 November 2024
        let workouts: [(start: Date, volumeKg: Double)] = [
            (at("America/New_York", 2024, 11, 3, 23, 30), 100),
            (at("America/New_York", 2024, 11, 4, 0, 30), 200),
        ]
        // When
        let weeks = ProgressStats.weekly(
            workouts: workouts, timeZone: zone("America/New_York"), now: at("America/New_York", 2024, 11, 6, 12),
            weeks: 2)
        // Then
        #expect(
            weeks == [
                WeeklyProgress(weekStart: at("UTC", 2024, 10, 28, 4), workouts: 1, volumeKg: 100),
                WeeklyProgress(weekStart: at("UTC", 2024, 11, 4, 5), workouts: 1, volumeKg: 200),
            ])
    }
}

@Suite("Streaks")
struct StreakTests {
    let utc = zone("UTC")

    @Test("the current streak is the run of days ending today")
    func endingToday() {
        // Given
        let days = [10, 11, 12, 13].map { at("UTC", 2024, 3, $0, 7) }
        // When
        let streaks = ProgressStats.streaks(workoutDays: days, timeZone: utc, now: at("UTC", 2024, 3, 13, 8))
        // Then
        #expect(streaks == Streaks(current: 4, longest: 4))
    }

    @Test("a streak is alive until the day is over, even with no workout yet today")
    func aliveUntilEndOfDay() {
        // Given
        let days = [10, 11, 12].map { at("UTC", 2024, 3, $0, 7) }
        // When it is late today and nothing is logged yet
        let streaks = ProgressStats.streaks(workoutDays: days, timeZone: utc, now: at("UTC", 2024, 3, 13, 23, 59))
        // Then
        #expect(streaks == Streaks(current: 3, longest: 3))
    }

    @Test("a whole day without a workout ends the current streak, but not the longest")
    func brokenStreak() {
        // Given
        let days = [10, 11].map { at("UTC", 2024, 3, $0, 7) }
        // When
        let streaks = ProgressStats.streaks(workoutDays: days, timeZone: utc, now: at("UTC", 2024, 3, 13, 0, 1))
        // Then
        #expect(streaks == Streaks(current: 0, longest: 2))
    }

    @Test("the longest streak may lie in the past")
    func longestInThePast() {
        // Given
        let days = [1, 2, 3, 4, 5, 9, 10].map { at("UTC", 2024, 3, $0, 7) }
        // When
        let streaks = ProgressStats.streaks(workoutDays: days, timeZone: utc, now: at("UTC", 2024, 3, 10, 20))
        // Then
        #expect(streaks == Streaks(current: 2, longest: 5))
    }

    @Test("several workouts on one day count once")
    func duplicateDays() {
        // Given
        let days = [
            at("UTC", 2024, 3, 12, 7), at("UTC", 2024, 3, 12, 18), at("UTC", 2024, 3, 13, 6), at("UTC", 2024, 3, 13, 6),
        ]
        // When
        let streaks = ProgressStats.streaks(workoutDays: days, timeZone: utc, now: at("UTC", 2024, 3, 13, 8))
        // Then
        #expect(streaks == Streaks(current: 2, longest: 2))
    }

    @Test("days are read in the user's time zone, not in UTC")
    func localDays() {
        // Given Los Angeles (UTC-8 in January): Sunday 17:00 and Monday 15:00 there are both Monday in UTC
        let la = zone("America/Los_Angeles")
        let days = [at("America/Los_Angeles", 2024, 1, 14, 17), at("America/Los_Angeles", 2024, 1, 15, 15)]
        // When it is Monday 20:00 there, Tuesday in UTC
        let streaks = ProgressStats.streaks(
            workoutDays: days, timeZone: la, now: at("America/Los_Angeles", 2024, 1, 15, 20))
        // Then
        #expect(streaks == Streaks(current: 2, longest: 2))
    }

    @Test("a morning and an evening workout on the same local day are one day, though UTC puts them on two")
    func sameLocalDay() {
        // Given Monday 10:00 and 20:00 in Los Angeles: Monday 18:00 and Tuesday 04:00 UTC
        let la = zone("America/Los_Angeles")
        let days = [at("America/Los_Angeles", 2024, 1, 15, 10), at("America/Los_Angeles", 2024, 1, 15, 20)]
        // When
        let streaks = ProgressStats.streaks(
            workoutDays: days, timeZone: la, now: at("America/Los_Angeles", 2024, 1, 15, 21))
        // Then
        #expect(streaks == Streaks(current: 1, longest: 1))
    }

    @Test("days shortened or lengthened by DST are still consecutive days")
    func acrossDST() {
        // Given Berlin around 31 March 2024 (23 hours) and 27 October 2024 (25 hours), late each evening
        let berlin = zone("Europe/Berlin")
        let spring =
            [30, 31].map { at("Europe/Berlin", 2024, 3, $0, 23, 30) } + [at("Europe/Berlin", 2024, 4, 1, 0, 30)]
        let autumn = [26, 27, 28].map { at("Europe/Berlin", 2024, 10, $0, 0, 15) }
        // When
        let streaks = ProgressStats.streaks(
            workoutDays: spring + autumn, timeZone: berlin, now: at("Europe/Berlin", 2024, 10, 28, 23, 45))
        // Then
        #expect(streaks == Streaks(current: 3, longest: 3))
    }

    @Test("days after today, from a clock running ahead, neither keep nor lengthen a streak")
    func futureDaysIgnored() {
        // Given
        let now = at("UTC", 2024, 3, 13, 8)
        let tomorrow = at("UTC", 2024, 3, 14, 7)
        // Then
        #expect(
            ProgressStats.streaks(workoutDays: [tomorrow], timeZone: utc, now: now) == Streaks(current: 0, longest: 0))
        #expect(
            ProgressStats.streaks(workoutDays: [at("UTC", 2024, 3, 13, 7), tomorrow], timeZone: utc, now: now)
                == Streaks(current: 1, longest: 1))
    }

    @Test("no workouts is no streak")
    func noWorkouts() {
        #expect(
            ProgressStats.streaks(workoutDays: [], timeZone: utc, now: at("UTC", 2024, 3, 13, 8))
                == Streaks(current: 0, longest: 0))
    }
}
