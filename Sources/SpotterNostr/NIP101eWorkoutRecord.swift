import Foundation
import SpotterModels

extension NIP101e {
    /// A workout record read from a kind 1301 event.
    public struct WorkoutRecordEvent: Sendable, Equatable {
        /// The record's `d` tag (a UUID as the draft asks; RUNSTR writes other unique text).
        public var identifier: String
        public var workout: WorkoutRecord
        /// Its `t` tags, lower-cased.
        public var hashtags: [String]
        /// What its `pr` tags claim.
        public var statedRecords: [StatedRecord]

        public init(identifier: String, workout: WorkoutRecord, hashtags: [String], statedRecords: [StatedRecord]) {
            self.identifier = identifier
            self.workout = workout
            self.hashtags = hashtags
            self.statedRecords = statedRecords
        }
    }

    /// The tags and content of a kind 1301 event for `workout`, for its author's device to sign.
    ///
    /// Each set is one `exercise` tag; a cardio entry is one tag of distance (metres) and duration (seconds),
    /// the format Spotter's cardio templates declare. An exercise refers to `exerciseReference(entry)`, by
    /// default `33401:<author>:<d>` where `d` is Spotter's exercise template id, or the exercise's name for an
    /// exercise without one (so a reader who knows no template still shows the name).
    ///
    /// ```swift
    /// let (tags, content) = NIP101e.workoutRecordEvent(workout, identifier: post.id.description, author: pubkey)
    /// let event = try await signer.sign(kind: .workoutRecord, tags: tags, content: content, createdAt: nil)
    /// ```
    public static func workoutRecordEvent(
        _ workout: WorkoutRecord, identifier: String, author: NostrPublicKey, relayHint: String = "",
        hashtags: [String] = [], records: [PersonalRecord] = [],
        exerciseReference: (ExerciseEntry) -> Reference? = { _ in nil }, templateReference: Reference? = nil
    ) -> (tags: [[String]], content: String) {
        func reference(_ entry: ExerciseEntry) -> Reference {
            exerciseReference(entry)
                ?? Reference(
                    kind: .exerciseTemplate, pubkey: author, identifier: entry.exerciseID?.description ?? entry.name)
        }
        var tags: [[String]] = [
            ["d", identifier],
            ["title", workout.title],
            ["type", workout.type.rawValue],
            ["start", String(Int64(workout.startTime.timeIntervalSince1970.rounded(.down)))],
        ]
        // Only a known end: a workout nobody timed says so by having none, rather than a made-up length.
        if let end = workout.endTime { tags.append(["end", String(Int64(end.timeIntervalSince1970.rounded(.down)))]) }
        for entry in workout.exercises {
            let address = reference(entry).description
            for set in entry.sets ?? [] {
                tags.append([
                    "exercise", address, relayHint, text(set.weightKg), String(set.reps), set.rpe.map(text) ?? "",
                    set.setType.rawValue,
                ])
            }
            if let cardio = entry.cardio {
                tags.append([
                    "exercise", address, relayHint, cardio.distanceM.map(text) ?? "", String(cardio.durationS),
                ])
            }
        }
        tags.append(["completed", workout.completed ? "true" : "false"])
        if let template = templateReference
            ?? workout.templateID.map({
                Reference(kind: .workoutTemplate, pubkey: author, identifier: $0.description)
            })
        {
            tags.append(["template", template.description, relayHint])
        }
        for record in records {
            let entry = workout.exercises.first { $0.name.lowercased() == record.exercise.lowercased() }
            let exercise = entry.map { reference($0).description } ?? record.exercise
            tags.append(["pr", "\(exercise),\(record.kind.rawValue),\(text(record.value))"])
        }
        for tag in hashtags { tags.append(["t", tag]) }
        return (tags, workout.notes ?? "")
    }

    /// Reads a kind 1301 event as a workout.
    ///
    /// `exercises` names the exercise templates the caller knows (else an exercise shows as its reference's
    /// `d`); `template` finds Spotter's workout template for a `template` tag. Both are lookups the caller
    /// prepares (see `exerciseReferences(in:)`), so reading stays pure. Lenient where the draft is silent:
    /// an empty weight is bodyweight (0 kg), a negative one (assisted) counts as 0 kg, an RPE of 0 is none,
    /// an unknown set type is normal; a record without `start`/`end` ends at `created_at` and started its
    /// duration before. Throws `NIP101eError` for what cannot be a workout.
    public static func workoutRecord(
        from event: NostrEvent, exercises known: (Reference) -> KnownExercise? = { _ in nil },
        template: (Reference) -> WorkoutTemplateID? = { _ in nil }
    ) throws -> WorkoutRecordEvent {
        guard event.kind == .workoutRecord else {
            throw NIP101eError.wrongKind(expected: .workoutRecord, found: event.kind)
        }
        var entries: [ExerciseEntry] = []
        var positions: [String: Int] = [:]
        var activities: [String] = []
        for values in tags("exercise", in: event) {
            guard let first = values.first?.trimmingCharacters(in: .whitespaces), !first.isEmpty else { continue }
            guard let reference = Reference(first), reference.kind == .exerciseTemplate else {
                // RUNSTR: `["exercise", "running"]`, the activity, whose numbers are tags of their own.
                if values.count == 1 || values.dropFirst().allSatisfy(\.isEmpty) { activities.append(first) }
                continue
            }
            let exercise = known(reference)
            let parameters = Array(values.dropFirst(2))
            guard parameters.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else { continue }
            let format = exercise?.format ?? (parameters.count == 2 ? cardioFormat : setFormat)
            let named = Dictionary(
                zip(format, parameters).map { ($0, $1.trimmingCharacters(in: .whitespaces)) },
                uniquingKeysWith: { first, _ in first })
            let index: Int
            if let existing = positions[first] {
                index = existing
            } else {
                index = entries.count
                positions[first] = index
                let name = exercise?.name ?? reference.identifier
                entries.append(ExerciseEntry(name: name.isEmpty ? "Exercise" : name, exerciseID: exercise?.id))
            }
            if named["weight"] == nil && named["reps"] == nil
                && (named["distance"] != nil || named["duration"] != nil)
            {
                let distance = try named["distance"].flatMap { try number($0, tag: "exercise") }
                let duration = try named["duration"].flatMap { try number($0, tag: "exercise") } ?? 0
                var cardio = entries[index].cardio ?? CardioMetrics(distanceM: nil, durationS: 0)
                if let distance { cardio.distanceM = (cardio.distanceM ?? 0) + max(distance, 0) }
                cardio.durationS += Int(max(duration, 0).rounded())
                entries[index].cardio = cardio
            } else {
                entries[index].sets = (entries[index].sets ?? []) + [try set(named)]
            }
        }
        let runstr = try runstrCardio(event)
        if entries.isEmpty, runstr != nil || !activities.isEmpty {
            let activity = activities.first.map(capitalized) ?? value("title", in: event) ?? "Workout"
            guard let runstr else { throw NIP101eError.noExercises }
            entries.append(ExerciseEntry(name: activity, cardio: runstr))
        }
        guard !entries.isEmpty else { throw NIP101eError.noExercises }

        let type =
            workoutType(value("type", in: event))
            ?? (entries.allSatisfy { $0.sets == nil } ? .cardio : .strength)
        let duration = Int64(entries.compactMap(\.cardio).reduce(0) { $0 + $1.durationS })
        var start = try seconds("start", in: event) ?? seconds("workout_start_time", in: event)
        var end = try seconds("end", in: event)
        switch (start, end) {
        case (nil, nil):
            end = event.createdAt
            start = event.createdAt - duration
        case (nil, let end?): start = end - duration
        case (let start?, nil): end = start + duration
        default: break
        }
        let title =
            value("title", in: event) ?? activities.first.map(capitalized) ?? entries.first?.name ?? "Workout"
        let templateID = value("template", in: event).flatMap(Reference.init).flatMap {
            $0.kind == .workoutTemplate ? template($0) : nil
        }
        let workout = WorkoutRecord(
            title: title, type: type, startTime: Date(timeIntervalSince1970: TimeInterval(start ?? 0)),
            endTime: Date(timeIntervalSince1970: TimeInterval(end ?? 0)), exercises: entries,
            completed: value("completed", in: event)?.lowercased() != "false", templateID: templateID,
            notes: event.content.isEmpty ? nil : event.content)
        return WorkoutRecordEvent(
            identifier: event.dTag, workout: workout, hashtags: hashtags(in: event),
            statedRecords: statedRecords(in: event))
    }

    /// The exercise templates a record or workout template refers to, for the caller to look up before
    /// reading it.
    public static func exerciseReferences(in event: NostrEvent) -> [Reference] {
        var seen = Set<Reference>()
        return event.tagValues("exercise").compactMap { text in
            guard let reference = Reference(text), reference.kind == .exerciseTemplate,
                seen.insert(reference).inserted
            else { return nil }
            return reference
        }
    }

    /// The workout template a record says it followed.
    public static func templateReference(in event: NostrEvent) -> Reference? {
        event.firstTagValue("template").flatMap(Reference.init).flatMap { $0.kind == .workoutTemplate ? $0 : nil }
    }

    // MARK: Reading

    private static func set(_ values: [String: String]) throws -> WorkoutSet {
        let weight = try values["weight"].flatMap { try number($0, tag: "exercise") } ?? 0
        let repsValue = try values["reps"].flatMap { try number($0, tag: "exercise") } ?? 0
        guard repsValue >= 0, repsValue == repsValue.rounded(), repsValue <= Double(Int32.max) else {
            throw NIP101eError.invalidTag("exercise", value: values["reps"] ?? "")
        }
        let rpe = try values["rpe"].flatMap { try number($0, tag: "exercise") }
        return WorkoutSet(
            weightKg: max(weight, 0), reps: Int(repsValue), rpe: rpe.flatMap { $0 > 0 ? $0 : nil },
            setType: setType(values["set_type"] ?? ""))
    }

    /// RUNSTR's distance and duration tags as one cardio entry; `nil` when it has neither.
    private static func runstrCardio(_ event: NostrEvent) throws -> CardioMetrics? {
        var distance: Double?
        if let values = tags("distance", in: event).first, let text = values.first {
            guard let value = try number(text, tag: "distance"), value >= 0 else {
                throw NIP101eError.invalidTag("distance", value: text)
            }
            let unit = values.count > 1 ? values[1].lowercased() : "km"
            let metres: [String: Double] = ["km": 1000, "mi": DistanceUnit.mi.metres, "m": 1, "ft": 0.3048]
            guard let scale = metres[unit] else { throw NIP101eError.invalidTag("distance", value: unit) }
            distance = value * scale
        }
        var duration: Int?
        if let text = value("duration", in: event) {
            // RUNSTR writes HH:MM:SS; a bare number is seconds, as the draft's durations are.
            duration = text.contains(":") ? CardioText.seconds(text) : Int(text)
            guard let seconds = duration, seconds >= 0 else { throw NIP101eError.invalidTag("duration", value: text) }
        }
        guard distance != nil || duration != nil else { return nil }
        return CardioMetrics(distanceM: distance, durationS: duration ?? 0)
    }

    private static func seconds(_ name: String, in event: NostrEvent) throws -> Int64? {
        guard let text = value(name, in: event) else { return nil }
        guard let seconds = Int64(text), seconds >= 0 else { throw NIP101eError.invalidTag(name, value: text) }
        return seconds
    }

    private static func statedRecords(in event: NostrEvent) -> [StatedRecord] {
        event.tagValues("pr").compactMap { text in
            // The reference may hold commas (a name as its d), so the metric and value are the last two fields.
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count >= 3, let value = Double(parts[parts.count - 1].trimmingCharacters(in: .whitespaces))
            else { return nil }
            return StatedRecord(
                exercise: parts.dropLast(2).joined(separator: ","),
                metric: parts[parts.count - 2].trimmingCharacters(in: .whitespaces), value: value)
        }
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
