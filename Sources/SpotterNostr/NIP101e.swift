import Foundation
import SpotterModels

/// NIP-101e (draft): workouts as Nostr events. Kind 1301 is a workout record, 33401 an exercise template and
/// 33402 a workout template; this maps each to Spotter's models and back.
///
/// Weights are kilograms; a record's `exercise` tags are one per set,
/// `["exercise", "33401:<pubkey>:<d>", "<relay hint>", "<weight kg>", "<reps>", "<rpe>", "<set_type>"]`, their
/// parameters in the order the exercise template's `format` lists them. Reading is tolerant: RUNSTR's shape of
/// 1301 (`["exercise", "running"]`, `["distance", "5.2", "km"]`, `["duration", "00:30:45"]`) becomes a cardio
/// workout, a trailing set number (POWR's later drafts) is ignored, and types outside Spotter's become the
/// nearest it has. What cannot be a workout is refused with a `NIP101eError`.
///
/// <https://github.com/nostr-protocol/nips/pull/1816>
public enum NIP101e {
    /// The parameters of a set, as the draft's standard exercise template lists them.
    public static let setFormat = ["weight", "reps", "rpe", "set_type"]
    public static let setFormatUnits = ["kg", "count", "0-10", "warmup|normal|drop|failure"]
    /// The parameters of a cardio entry, as Spotter writes them (the draft lets a template define its own):
    /// distance in metres (empty when not measured) and duration in seconds.
    public static let cardioFormat = ["distance", "duration"]
    public static let cardioFormatUnits = ["m", "seconds"]

    /// The unit the draft gives each parameter Spotter knows.
    static let units: [String: String] = [
        "weight": "kg", "reps": "count", "rpe": "0-10", "set_type": "warmup|normal|drop|failure",
        "distance": "m", "duration": "seconds",
    ]

    /// An addressable event's coordinate, `<kind>:<pubkey>:<d>`, as `exercise` and `template` tags name them.
    public struct Reference: Hashable, Sendable, CustomStringConvertible {
        public var kind: NostrKind
        public var pubkey: NostrPublicKey
        /// The `d` tag of the event it names (may itself contain `:`).
        public var identifier: String

        public init(kind: NostrKind, pubkey: NostrPublicKey, identifier: String) {
            self.kind = kind
            self.pubkey = pubkey
            self.identifier = identifier
        }

        /// Reads `<kind>:<pubkey>:<d>`; `nil` for anything else.
        public init?(_ text: String) {
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let kind = Int(parts[0]), let pubkey = NostrPublicKey(rawValue: String(parts[1]))
            else { return nil }
            self.init(kind: NostrKind(kind), pubkey: pubkey, identifier: String(parts[2]))
        }

        public var description: String { "\(kind.rawValue):\(pubkey.rawValue):\(identifier)" }
    }

    /// What the caller knows of an exercise template a record or workout template names: the name it shows,
    /// Spotter's template when the exercise became one, and the parameters its sets list.
    public struct KnownExercise: Sendable, Equatable {
        public var name: String
        public var id: ExerciseTemplateID?
        /// The template's `format`; `nil` for the draft's standard (`setFormat`).
        public var format: [String]?

        public init(name: String, id: ExerciseTemplateID? = nil, format: [String]? = nil) {
            self.name = name
            self.id = id
            self.format = format
        }
    }

    /// A personal record as a `pr` tag states it: `"<exercise reference>,<metric>,<value>"`. Spotter writes
    /// its `RecordKind` names as the metric; on input these are what the author's client claimed, kept for
    /// display only (Spotter detects records itself).
    public struct StatedRecord: Sendable, Equatable {
        /// The exercise's reference, or its name when the tag named no reference.
        public var exercise: String
        public var metric: String
        public var value: Double

        public init(exercise: String, metric: String, value: Double) {
            self.exercise = exercise
            self.metric = metric
            self.value = value
        }
    }

    // MARK: Reading helpers

    /// `[name, value…]` tags of the event named `name`, each without its name.
    static func tags(_ name: String, in event: NostrEvent) -> [[String]] {
        event.tags.compactMap { $0.first == name ? Array($0.dropFirst()) : nil }
    }

    /// The first value of tag `name`, trimmed; `nil` when absent or blank.
    static func value(_ name: String, in event: NostrEvent) -> String? {
        guard let value = event.firstTagValue(name)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !value.isEmpty
        else { return nil }
        return value
    }

    /// Hashtags of `t` tags, lower-cased as Spotter keeps hashtags, without duplicates, in order.
    static func hashtags(in event: NostrEvent) -> [String] {
        var seen = Set<String>()
        return event.tagValues("t").compactMap { tag in
            let tag = tag.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            guard !tag.isEmpty, seen.insert(tag).inserted else { return nil }
            return tag
        }
    }

    /// A workout type as the draft or another client writes it, as the nearest Spotter has.
    static func workoutType(_ text: String?) -> WorkoutType? {
        guard let text = text?.lowercased() else { return nil }
        if let type = WorkoutType(rawValue: text) { return type }
        switch text {
        case "superset": return .strength  // POWR's later drafts: two exercises back to back, still sets
        case "metcon": return .circuit
        default: return nil
        }
    }

    /// A set type as written; `working` (POWR) and an empty value are normal sets.
    static func setType(_ text: String) -> SetType {
        SetType(rawValue: text.lowercased()) ?? .normal
    }

    /// A decimal number as the draft writes it: `"100"`, `"102.5"`; `nil` for empty text.
    static func number(_ text: String, tag: String) throws -> Double? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        guard let value = Double(text), value.isFinite else { throw NIP101eError.invalidTag(tag, value: text) }
        return value
    }

    /// The shortest text that reads back as the same number: `100`, `102.5`.
    static func text(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

/// Why an event could not become a Spotter workout or template.
public enum NIP101eError: Error, Equatable, CustomStringConvertible {
    /// The event is not of the kind asked for.
    case wrongKind(expected: NostrKind, found: NostrKind)
    /// A tag the draft requires, without which there is nothing to make, is missing.
    case missingTag(String)
    /// A tag's value is not what the draft says it holds.
    case invalidTag(String, value: String)
    /// The record names no exercise Spotter can keep (no sets, no distance or time).
    case noExercises

    public var description: String {
        switch self {
        case .wrongKind(let expected, let found): "expected kind \(expected.rawValue), found \(found.rawValue)"
        case .missingTag(let name): "the \(name) tag is missing"
        case .invalidTag(let name, let value): "the \(name) tag's value \"\(value)\" is not valid"
        case .noExercises: "it names no exercise with sets, distance or time"
        }
    }
}
