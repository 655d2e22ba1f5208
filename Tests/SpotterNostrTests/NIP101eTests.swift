import Foundation
import SpotterModels
import SpotterNostr
import Testing

@Suite("NIP-101e: workouts and templates as events")
struct NIP101eTests {
    static let start = Date(timeIntervalSince1970: 1_706_454_000)
    static let pubkey = NostrPublicKey(rawValue: String(repeating: "ab", count: 32))!

    static func event(
        kind: NostrKind, tags: [[String]], content: String = "", createdAt: Int64 = 1_706_456_000
    )
        throws -> NostrEvent
    {
        try NostrEvent.sign(kind: kind, tags: tags, content: content, createdAt: createdAt, with: key)
    }
    static let key = try! NostrSecretKey.generate()

    static func literal(_ json: String) throws -> NostrEvent {
        try NostrJSON.decoder.decode(NostrEvent.self, from: Data(json.utf8))
    }

    // MARK: Round trips

    @Test("a strength workout survives the trip to a 1301 event and back, names and template included")
    func strengthRoundTrip() throws {
        // Given a workout of two exercises, one from Spotter's templates, done from a workout template
        let bench = ExerciseTemplateID.generate()
        let template = WorkoutTemplateID.generate()
        let workout = WorkoutRecord(
            title: "Push day", type: .strength, startTime: Self.start, endTime: Self.start + 3600,
            exercises: [
                ExerciseEntry(
                    name: "Bench Press", exerciseID: bench,
                    sets: [
                        WorkoutSet(weightKg: 60, reps: 10, setType: .warmup),
                        WorkoutSet(weightKg: 102.5, reps: 5, rpe: 8.5),
                        WorkoutSet(weightKg: 102.5, reps: 5, rpe: 9, setType: .failure),
                    ]),
                ExerciseEntry(name: "Dips, weighted", sets: [WorkoutSet(weightKg: 0, reps: 12, setType: .drop)]),
            ],
            completed: false, templateID: template, notes: "Felt strong.\n\"Quotes\" and ünïcode ✓")
        let record = PersonalRecord(
            exercise: "bench press", kind: .heaviestWeight, value: 102.5, achievedAt: Self.start)

        // When it is written as an event, signed, and read back knowing the bench template
        let key = Self.key.publicKey
        let (tags, content) = NIP101e.workoutRecordEvent(
            workout, identifier: "9b1f0c1e-4f7e-4a55-9a3c-1b9a2f7d0e11", author: key, relayHint: "wss://spotter/relay",
            hashtags: ["push", "strength"], records: [record])
        let event = try Self.event(kind: .workoutRecord, tags: tags, content: content)
        #expect(event.isValid)
        let benchReference = NIP101e.Reference(kind: .exerciseTemplate, pubkey: key, identifier: bench.description)
        #expect(NIP101e.exerciseReferences(in: event).map(\.description).contains(benchReference.description))
        let read = try NIP101e.workoutRecord(
            from: event,
            exercises: { $0 == benchReference ? NIP101e.KnownExercise(name: "Bench Press", id: bench) : nil },
            template: { $0.identifier == template.description ? template : nil })

        // Then it is the same workout, with its tags and its stated record
        #expect(read.workout == workout)
        #expect(read.identifier == "9b1f0c1e-4f7e-4a55-9a3c-1b9a2f7d0e11")
        #expect(read.hashtags == ["push", "strength"])
        #expect(
            read.statedRecords == [
                NIP101e.StatedRecord(exercise: benchReference.description, metric: "heaviest_weight", value: 102.5)
            ])
        // And the sets are one tag each, in the draft's order
        #expect(
            tags.filter { $0.first == "exercise" }.first
                == ["exercise", benchReference.description, "wss://spotter/relay", "60", "10", "", "warmup"])
        #expect(tags.contains(["completed", "false"]))
        #expect(tags.contains(["start", "1706454000"]) && tags.contains(["end", "1706457600"]))
    }

    @Test("a cardio entry travels as distance in metres and seconds, and reads back without a lookup")
    func cardioRoundTrip() throws {
        let workout = WorkoutRecord(
            title: "Tempo run", type: .cardio, startTime: Self.start, endTime: Self.start + 1845,
            exercises: [
                ExerciseEntry(name: "Running", cardio: CardioMetrics(distanceM: 5200, durationS: 1845)),
                ExerciseEntry(name: "Rowing", cardio: CardioMetrics(distanceM: nil, durationS: 600)),
            ])
        let (tags, content) = NIP101e.workoutRecordEvent(workout, identifier: "run-1", author: Self.pubkey)
        let event = try Self.event(kind: .workoutRecord, tags: tags, content: content)
        #expect(try NIP101e.workoutRecord(from: event).workout == workout)
        #expect(tags.contains(["exercise", "33401:\(Self.pubkey.rawValue):Running", "", "5200", "1845"]))
    }

    @Test("an exercise template survives the trip to a 33401 event and back")
    func exerciseTemplateRoundTrip() throws {
        let request = CreateExerciseTemplateRequest(
            name: "Barbell Deadlift", equipment: "barbell", muscleGroups: ["legs", "posterior"],
            format: ["weight", "reps", "rpe", "set_type"], visibility: .public)
        let (tags, content) = NIP101e.exerciseTemplateEvent(
            request, identifier: "d-1", instructions: "Hinge at the hips.", difficulty: "intermediate")
        #expect(tags.contains(["format_units", "kg", "count", "0-10", "warmup|normal|drop|failure"]))
        let read = try NIP101e.exerciseTemplate(
            from: try Self.event(kind: .exerciseTemplate, tags: tags, content: content))
        #expect(read.template == request)
        #expect(read.identifier == "d-1")
        #expect(read.instructions == "Hinge at the hips.")
        #expect(read.difficulty == "intermediate")
    }

    @Test("a workout template survives the trip to a 33402 event and back, open values and all")
    func workoutTemplateRoundTrip() throws {
        let squat = ExerciseTemplateID.generate()
        let request = CreateWorkoutTemplateRequest(
            name: "5×5 A", type: .strength, description: "Add 2.5 kg a session.",
            exercises: [
                TemplateExercise(
                    name: "Squat", exerciseID: squat,
                    targetSets: [TargetSet(weightKg: 100, reps: 5), TargetSet(weightKg: 100, reps: 5)]),
                TemplateExercise(name: "Plank", targetSets: []),
                TemplateExercise(name: "Chin-up", targetSets: [TargetSet(reps: 8), TargetSet(weightKg: 7.5)]),
            ], visibility: .public)
        let (tags, content) = NIP101e.workoutTemplateEvent(
            request, identifier: "tpl-1", author: Self.pubkey, hashtags: ["legs"])
        let event = try Self.event(kind: .workoutTemplate, tags: tags, content: content)
        let read = try NIP101e.workoutTemplate(
            from: event,
            exercises: { $0.identifier == squat.description ? NIP101e.KnownExercise(name: "Squat", id: squat) : nil })
        #expect(read.template == request)
        #expect(read.hashtags == ["legs"])
        #expect(read.identifier == "tpl-1")
    }

    // MARK: Other clients' events

    @Test("POWR's circuit record reads with the names of known templates, its set numbers ignored")
    func powrRecord() throws {
        // Given the draft's circuit example as POWR publishes it (later drafts add a set number)
        let pk = String(repeating: "c4", count: 32)
        let event = try Self.literal(
            """
            {"id":"\(String(repeating: "0", count: 64))","pubkey":"\(pk)","created_at":1706455900,"kind":1301,
             "content":"Completed first round as prescribed. Second round showed form deterioration on deadlifts.",
             "tags":[["d","5c4f3a2e-0d1b-4c9e-8f7a-6b5d4c3b2a19"],["title","Leg Circuit"],["type","circuit"],
              ["rounds_completed","1.5"],["start","1706454000"],["end","1706455800"],
              ["exercise","33401:\(pk):squat-uuid","wss://relay.powr.me","80","12","7","normal","1"],
              ["exercise","33401:\(pk):deadlift-uuid","wss://relay.powr.me","100","10","7","normal","1"],
              ["exercise","33401:\(pk):squat-uuid","wss://relay.powr.me","80","12","8","normal","2"],
              ["exercise","33401:\(pk):deadlift-uuid","wss://relay.powr.me","100","4","10","failure","2"],
              ["completed","false"],["t","legs"],["client","POWR"]],
             "sig":"\(String(repeating: "0", count: 128))"}
            """)

        // When Spotter reads it knowing the squat template only
        let read = try NIP101e.workoutRecord(
            from: event, exercises: { $0.identifier == "squat-uuid" ? .init(name: "Back Squat") : nil })

        // Then it is a circuit of two exercises with two sets each, in order
        let workout = read.workout
        #expect(workout.title == "Leg Circuit")
        #expect(workout.type == .circuit)
        #expect(workout.startTime == Self.start && workout.endTime == Self.start + 1800)
        #expect(workout.completed == false)
        #expect(workout.exercises.map(\.name) == ["Back Squat", "deadlift-uuid"])
        #expect(
            workout.exercises[1].sets == [
                WorkoutSet(weightKg: 100, reps: 10, rpe: 7),
                WorkoutSet(weightKg: 100, reps: 4, rpe: 10, setType: .failure),
            ])
        #expect(workout.notes?.hasPrefix("Completed first round") == true)
        #expect(read.hashtags == ["legs"])
    }

    @Test("POWR's exercise template, with its unit list and imeta, reads as Spotter's template")
    func powrExerciseTemplate() throws {
        let event = try Self.literal(
            """
            {"id":"\(String(repeating: "1", count: 64))","pubkey":"\(String(repeating: "c4", count: 32))",
             "created_at":1706455900,"kind":33401,"content":"Stand with feet hip-width apart.",
             "tags":[["d","deadlift-uuid"],["title","Barbell Deadlift"],["format","weight","reps","rpe","set_type"],
              ["format_units","kg","count","0-10","warmup|normal|drop|failure"],["equipment","barbell"],
              ["difficulty","intermediate"],["imeta","url https://powr.me/d.mp4","m video/mp4"],
              ["t","compound"],["t","Legs"]],
             "sig":"\(String(repeating: "0", count: 128))"}
            """)
        let read = try NIP101e.exerciseTemplate(from: event)
        #expect(
            read.template
                == CreateExerciseTemplateRequest(
                    name: "Barbell Deadlift", equipment: "barbell", muscleGroups: ["compound", "legs"],
                    format: ["weight", "reps", "rpe", "set_type"], visibility: .public))
        #expect(read.difficulty == "intermediate")
    }

    @Test("RUNSTR's run reads as a cardio workout that ended when it was published")
    func runstrRecord() throws {
        let event = try Self.literal(
            """
            {"id":"\(String(repeating: "2", count: 64))","pubkey":"\(String(repeating: "d5", count: 32))",
             "created_at":1706456000,"kind":1301,"content":"Completed a running workout with RUNSTR!",
             "tags":[["d","workout_uuid_12345"],["title","Morning Run"],["exercise","running"],
              ["distance","5.2","km"],["duration","00:30:45"],["source","RUNSTR"],["client","RUNSTR","0.2.6"],
              ["t","Running"]],
             "sig":"\(String(repeating: "0", count: 128))"}
            """)
        let read = try NIP101e.workoutRecord(from: event)
        #expect(
            read.workout
                == WorkoutRecord(
                    title: "Morning Run", type: .cardio, startTime: Date(timeIntervalSince1970: 1_706_456_000 - 1845),
                    endTime: Date(timeIntervalSince1970: 1_706_456_000),
                    exercises: [
                        ExerciseEntry(name: "Running", cardio: CardioMetrics(distanceM: 5200, durationS: 1845))
                    ],
                    notes: "Completed a running workout with RUNSTR!"))
        #expect(read.hashtags == ["running"])
        #expect(read.identifier == "workout_uuid_12345")
    }

    @Test(
        "RUNSTR's distances in miles, metres and feet become metres; its start time is kept",
        arguments: [("3.1", "mi", 3.1 * 1609.344), ("800", "m", 800), ("1000", "ft", 304.8)])
    func runstrUnits(value: String, unit: String, metres: Double) throws {
        let event = try Self.event(
            kind: .workoutRecord,
            tags: [
                ["d", "w"], ["exercise", "walking"], ["distance", value, unit], ["duration", "01:02:03"],
                ["workout_start_time", "1706454000"],
            ])
        let workout = try NIP101e.workoutRecord(from: event).workout
        #expect(abs((workout.exercises[0].cardio?.distanceM ?? 0) - metres) < 1e-9)
        #expect(workout.exercises[0].cardio?.durationS == 3723)
        #expect(workout.title == "Walking")
        #expect(workout.startTime == Self.start && workout.endTime == Self.start + 3723)
    }

    // MARK: Refusals

    @Test(
        "what cannot be a workout is refused with the reason",
        arguments: [
            ([["d", "x"], ["title", "Nothing"]], NIP101eError.noExercises),
            ([["d", "x"], ["exercise", "yoga"]], NIP101eError.noExercises),
            (
                [["d", "x"], ["exercise", "33401:\(String(repeating: "ab", count: 32)):x", "", "", "", "", ""]],
                .noExercises
            ),
            (
                [["exercise", "33401:\(String(repeating: "ab", count: 32)):x", "", "heavy", "5", "", ""]],
                .invalidTag("exercise", value: "heavy")
            ),
            (
                [["exercise", "33401:\(String(repeating: "ab", count: 32)):x", "", "100", "5.5", "", "normal"]],
                .invalidTag("exercise", value: "5.5")
            ),
            (
                [
                    ["start", "yesterday"],
                    ["exercise", "33401:\(String(repeating: "ab", count: 32)):x", "", "100", "5"],
                ],
                .invalidTag("start", value: "yesterday")
            ),
            ([["exercise", "running"], ["distance", "5", "furlongs"]], .invalidTag("distance", value: "furlongs")),
            (
                [["exercise", "running"], ["duration", "half an hour"]], .invalidTag("duration", value: "half an hour")
            ),
        ] as [([[String]], NIP101eError)])
    func refusedRecords(tags: [[String]], error: NIP101eError) throws {
        let event = try Self.event(kind: .workoutRecord, tags: tags)
        #expect(throws: error) { try NIP101e.workoutRecord(from: event) }
    }

    @Test("templates without a title or exercises, and events of other kinds, are refused")
    func refusedTemplates() throws {
        let untitled = try Self.event(kind: .exerciseTemplate, tags: [["d", "x"], ["format", "reps"]])
        #expect(throws: NIP101eError.missingTag("title")) { try NIP101e.exerciseTemplate(from: untitled) }
        let empty = try Self.event(kind: .workoutTemplate, tags: [["d", "x"], ["title", "Empty"], ["type", "emom"]])
        #expect(throws: NIP101eError.noExercises) { try NIP101e.workoutTemplate(from: empty) }
        let note = try Self.event(kind: .textNote, tags: [["t", "running"]], content: "5k")
        #expect(throws: NIP101eError.wrongKind(expected: .workoutRecord, found: .textNote)) {
            try NIP101e.workoutRecord(from: note)
        }
        #expect(throws: NIP101eError.wrongKind(expected: .workoutTemplate, found: .textNote)) {
            try NIP101e.workoutTemplate(from: note)
        }
    }

    @Test("types outside Spotter's become the nearest it has, and odd set values read leniently")
    func lenientValues() throws {
        let ref = "33401:\(Self.pubkey.rawValue):pullup"
        let event = try Self.event(
            kind: .workoutRecord,
            tags: [
                ["type", "superset"], ["start", "1706454000"], ["end", "1706454600"],
                ["exercise", ref, "", "-20", "8", "0", "working"], ["exercise", ref, "", "", "6", "", ""],
            ])
        let workout = try NIP101e.workoutRecord(from: event).workout
        #expect(workout.type == .strength)
        #expect(workout.title == "pullup")
        #expect(workout.exercises[0].sets == [WorkoutSet(weightKg: 0, reps: 8), WorkoutSet(weightKg: 0, reps: 6)])
        let metcon = try Self.event(
            kind: .workoutRecord, tags: [["type", "METCON"], ["exercise", ref, "", "0", "10", "7", "normal"]])
        #expect(try NIP101e.workoutRecord(from: metcon).workout.type == .circuit)
        // A template's "0" reps is another client's "no target": Spotter's targets have at least one rep.
        let plan = try Self.event(
            kind: .workoutTemplate,
            tags: [
                ["d", "plan"], ["title", "Pull"], ["exercise", ref, "", "10", "0", "", "normal"],
                ["exercise", ref, "", "", "0", "", "normal"], ["exercise", ref, "", "", "5", "", "normal"],
            ])
        #expect(
            try NIP101e.workoutTemplate(from: plan).template.exercises[0].targetSets == [
                TargetSet(weightKg: 10), TargetSet(reps: 5),
            ])
    }
}
