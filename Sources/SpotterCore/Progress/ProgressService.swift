import Foundation
import SpotterModels

/// A profile's progress: workouts and volume per week, streaks, and standing personal records, from the
/// workouts the viewer may see (a followers-only workout counts only for followers).
public struct ProgressService: Sendable {
    public static let maxWeeks = 104

    let storage: any SpotterStorage
    let clock: any WallClock
    let social: SocialService

    /// `social` is the composition root's; tools that pass none get one that tells nobody.
    public init(storage: any SpotterStorage, clock: any WallClock, social: SocialService? = nil) {
        self.storage = storage
        self.clock = clock
        self.social = social ?? SocialService(storage: storage, clock: clock)
    }

    public func report(for username: String, viewer: AccountRecord?, weeks: String?) async throws -> ProgressReport {
        var weekCount = 12
        if let weeks {
            guard let value = Int(weeks), (1...Self.maxWeeks).contains(value) else {
                throw SpotterError.malformed(
                    detail: "weeks must be a whole number from 1 to \(Self.maxWeeks).", field: "weeks")
            }
            weekCount = value
        }
        let account = try await social.visibleAccount(username, viewer: viewer)
        let history = try await storage.posts.workoutHistory(of: account.id, viewer: viewer?.id)
        let zone = TimeZone(identifier: account.profile.timeZone) ?? .gmt
        let now = clock.now
        let weekly = ProgressStats.weekly(
            workouts: history.map { ($0.performedAt, $0.workout?.volumeKg ?? 0) }, timeZone: zone, now: now,
            weeks: weekCount)
        let streaks = ProgressStats.streaks(workoutDays: history.map(\.performedAt), timeZone: zone, now: now)
        let lifts = ProgressStats.mainLifts(
            workouts: history.compactMap { entry in entry.workout.map { (entry.performedAt, $0) } },
            since: weekly.first?.weekStart ?? now)
        return ProgressReport(
            timeZone: zone.identifier,
            weeks: weekly.map { .init(weekStart: $0.weekStart, workouts: $0.workouts, volumeKg: $0.volumeKg) },
            currentStreak: streaks.current, longestStreak: streaks.longest,
            personalRecords: Self.standing(history.flatMap(\.records)), exercises: lifts)
    }

    /// The latest record of each kind per exercise (per weight for most reps): a newer record of a kind only
    /// exists because it beat the older one, so the latest is the one that stands.
    static func standing(_ records: [PersonalRecord]) -> [PersonalRecord] {
        var latest: [String: PersonalRecord] = [:]
        for record in records {
            let key =
                "\(PersonalRecordDetector.exerciseKey(record.exercise))|\(record.kind.rawValue)|\(record.weightKg ?? -1)"
            if let existing = latest[key], existing.achievedAt >= record.achievedAt { continue }
            latest[key] = record
        }
        return latest.values.sorted {
            ($0.exercise.lowercased(), $0.kind.rawValue, $0.weightKg ?? 0) < (
                $1.exercise.lowercased(), $1.kind.rawValue, $1.weightKg ?? 0
            )
        }
    }
}

/// One workout of a person's history, as progress needs it.
public struct WorkoutHistoryEntry: Sendable {
    public var performedAt: Date
    public var workout: WorkoutRecord?
    public var records: [PersonalRecord]

    public init(performedAt: Date, workout: WorkoutRecord?, records: [PersonalRecord]) {
        self.performedAt = performedAt
        self.workout = workout
        self.records = records
    }

    /// An entry from a workout post's stored columns, or nil unless its workout was completed: only finished
    /// workouts make a history. One rule for both adapters' history reads.
    public init?(performedAt: Date, storedWorkout: String?, storedRecords: String?) {
        guard let workout = StoredJSON.decode(WorkoutRecord.self, from: storedWorkout), workout.completed else {
            return nil
        }
        self.init(
            performedAt: performedAt, workout: workout,
            records: StoredJSON.decode([PersonalRecord].self, from: storedRecords) ?? [])
    }
}
