import Foundation
import SpotterModels
import Testing

/// A workout says when it was done, and how long it took only when someone said so.
@Suite("A workout's times on the wire")
struct WorkoutTimesWireTests {
    static let workout = """
        {"title": "Legs", "type": "strength", "start_time": "2026-11-22T18:00:00Z",
         "exercises": [{"name": "Back Squat", "sets": [{"weight_kg": 100, "reps": 5}]}]}
        """

    @Test("a workout stored with an end time, as every one was before, decodes with its duration")
    func storedWithEnd() throws {
        let json = Self.workout.replacingOccurrences(
            of: #""start_time": "2026-11-22T18:00:00Z","#,
            with: #""start_time": "2026-11-22T18:00:00Z", "end_time": "2026-11-22T18:45:00Z","#)
        let workout = try WireJSON.decoder().decode(WorkoutRecord.self, from: Data(json.utf8))
        #expect(workout.endTime == ISO8601DateFormatter().date(from: "2026-11-22T18:45:00Z"))
        #expect(workout.duration == TimeInterval(45 * 60))
    }

    @Test("a workout without an end time decodes without a duration, and encodes without one")
    func withoutEnd() throws {
        let workout = try WireJSON.decoder().decode(WorkoutRecord.self, from: Data(Self.workout.utf8))
        #expect(workout.endTime == nil)
        #expect(workout.duration == nil)
        #expect(workout.startTime == ISO8601DateFormatter().date(from: "2026-11-22T18:00:00Z"))
        let encoded = String(decoding: try WireJSON.encoder().encode(workout), as: UTF8.self)
        #expect(!encoded.contains("end_time"))
        #expect(encoded.contains(#""start_time":"2026-11-22T18:00:00Z""#))
    }

    @Test("an end at the start says nothing about how long it took")
    func zeroLength() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let workout = WorkoutRecord(
            title: "Legs", type: .strength, startTime: start, endTime: start,
            exercises: [ExerciseEntry(name: "Back Squat", sets: [WorkoutSet(weightKg: 100, reps: 5)])])
        #expect(workout.duration == nil)
    }
}
