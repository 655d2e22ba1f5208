import ArgumentParser
import Foundation
import SpotterKit
import SpotterModels

/// What a workout was, as `spotter log-workout` and `spotter edit` take it: the same flags, read the same way.
///
/// A value it cannot read is refused by the command's `validate()` (`check()`), so ArgumentParser says what is
/// wrong and how to write it, under the command's own usage. How long it took is only what was said:
/// `--minutes`, `--start` and `--end`, or a run's `--duration`; otherwise the workout has no duration.
struct WorkoutFlags: ParsableArguments {
    @Option(help: "The workout's title.") var title: String?
    @Option(help: "strength, circuit, emom, amrap or cardio (cardio when --distance or --duration is given).")
    var type: WorkoutType?
    @Option(help: "\"Name: 100x5, 100x5\" (kg × reps); repeat for each exercise. For cardio, just the name (\"Run\").")
    var exercise: [String] = []
    @Option(help: "Cardio distance: 5.2km, 3.1mi or 5000m (a bare number is km).") var distance: String?
    @Option(help: "Cardio time: h:mm:ss, mm:ss or minutes.") var duration: String?
    @Option(help: "Minutes it took (for cardio, the --duration by default; otherwise none unless given).")
    var minutes: Int?
    @Option(help: "When it started: 2026-03-02T18:00 (your time) or 2026-03-02T18:00:00Z.") var start: String?
    @Option(help: "When it ended, in the same form as --start.") var end: String?

    /// Refuses what cannot be read, one line each: the command calls it from its `validate()`.
    func check() throws {
        _ = try cardio()
        if try cardio() == nil { _ = try exercise.map(Self.parse) }
        if let minutes, !(1...1440).contains(minutes) {
            throw ValidationError("--minutes must be a whole number from 1 to 1440, not \(minutes).")
        }
        let start = try start.map { try Self.date($0, flag: "--start") }
        let end = try end.map { try Self.date($0, flag: "--end") }
        if let start, let end, end < start { throw ValidationError("--end is before --start.") }
        if start != nil, end != nil, minutes != nil {
            throw ValidationError("Give --minutes or both --start and --end, not all three.")
        }
    }

    /// Whether any flag says something about the workout (an edit with none changes only its text).
    var saysAnything: Bool {
        title != nil || type != nil || !exercise.isEmpty || distance != nil || duration != nil || minutes != nil
            || start != nil || end != nil
    }

    /// `--distance` and `--duration` as cardio metrics; `nil` when neither is given.
    func cardio() throws -> CardioMetrics? {
        guard distance != nil || duration != nil else { return nil }
        var metres: Double?
        if let distance {
            guard let parsed = CardioText.metres(distance, unit: .km) else {
                throw ValidationError("\"\(distance)\": write the distance like 5.2km, 3.1mi or 5000m.")
            }
            metres = parsed
        }
        var seconds = 0
        if let duration {
            guard let parsed = CardioText.seconds(duration) else {
                throw ValidationError("\"\(duration)\": write the time as h:mm:ss, mm:ss or minutes, like 30:45.")
            }
            seconds = parsed
        }
        return CardioMetrics(distanceM: metres, durationS: seconds)
    }

    /// The exercises the flags give: a run's names with its metrics, or each `--exercise` with its sets; empty
    /// when none is given. `names` stand in for a run whose `--exercise` is left out.
    func exercises(orNames names: [String]) throws -> [ExerciseEntry] {
        if let cardio = try cardio() {
            return (exercise.isEmpty ? names : exercise).map { ExerciseEntry(name: $0, cardio: cardio) }
        }
        return try exercise.map(Self.parse)
    }

    /// The workout's start and end from `--start`, `--end` and `--minutes` (a run's time when no minutes are
    /// given), starting from `start` and `end` as they were (an edit's) or none (a new workout, done `now`).
    func times(
        from current: (start: Date, end: Date?)?, now: Date
    ) throws -> (start: Date, end: Date?) {
        let given = (
            start: try start.map { try Self.date($0, flag: "--start") },
            end: try end.map { try Self.date($0, flag: "--end") }
        )
        // A run's time, to the minute up, when no minutes are given (as the web form counts it).
        let run = try cardio().map(\.durationS).flatMap { $0 > 0 ? ($0 + 59) / 60 * 60 : nil }
        let seconds = (minutes.map { $0 * 60 } ?? run).map { TimeInterval($0) }
        switch (given.start, given.end, seconds) {
        case (let start?, let end?, _): return (start, end)
        case (let start?, nil, let seconds?): return (start, start + seconds)
        case (nil, let end?, let seconds?): return (end - seconds, end)
        case (let start?, nil, nil):
            // A logged workout moved keeps how long it took.
            let took = current.flatMap { current in current.end.map { $0.timeIntervalSince(current.start) } }
            return (start, took.flatMap { $0 > 0 ? start + $0 : nil })
        case (nil, let end?, nil): return current.map { ($0.start, end) } ?? (end, nil)
        case (nil, nil, let seconds?):
            // Minutes end when it was done: a logged workout's end, or its one moment when it had no duration
            // (as the web edit page reads them); a new workout's now. Never an end in the future.
            let done = current.map { $0.end ?? $0.start } ?? now
            return (done - seconds, done)
        case (nil, nil, nil): return current ?? (now, nil)
        }
    }

    /// "Back Squat: 100x5, 100x5, 105x3" → the exercise and its sets (kg × reps).
    static func parse(_ text: String) throws -> ExerciseEntry {
        guard text.contains(":") else {
            throw ValidationError("\"\(text)\": write the exercise as \"Name: 100x5, 100x5\" (kg x reps).")
        }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw ValidationError("\"\(text)\": name the exercise before the colon.") }
        let sets = try parts[1].split(separator: ",").map { set -> WorkoutSet in
            let written = set.trimmingCharacters(in: .whitespaces)
            let numbers = written.lowercased().split(separator: "x").map { $0.trimmingCharacters(in: .whitespaces) }
            guard numbers.count == 2, let weight = Double(numbers[0]), let reps = Int(numbers[1]) else {
                throw ValidationError("\"\(written)\": write each set as kg x reps, like 100x5.")
            }
            return WorkoutSet(weightKg: weight, reps: reps)
        }
        guard !sets.isEmpty else { throw ValidationError("\"\(text)\": give at least one set, like \(name): 100x5.") }
        return ExerciseEntry(name: name, sets: sets)
    }

    /// A moment as typed: ISO 8601 with a zone, or a local date and time ("2026-03-02T18:00", "2026-03-02 18:00").
    static func date(_ text: String, flag: String, timeZone: TimeZone = .current) throws -> Date {
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { return date }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = timeZone
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm"] {
            local.dateFormat = format
            if let date = local.date(from: text) { return date }
        }
        throw ValidationError("\(flag) \"\(text)\": write a date and time like 2026-03-02T18:00.")
    }
}
