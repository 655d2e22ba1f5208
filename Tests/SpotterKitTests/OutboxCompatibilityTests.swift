import Foundation
import NIOConcurrencyHelpers
import SpotterKit
import SpotterModels
import Testing

/// Devices keep queued actions across app updates and replay them afterwards: the JSON stored by every
/// released version must keep decoding to the same action (isowords' backwards-compatibility tests).
///
/// The literals are what SpotterKit's synthesized `Codable` stored before issue 23, captured from two runs:
/// the order of keys differed from process to process.
@Suite("Outbox compatibility")
struct OutboxCompatibilityTests {
    static let post = PostID("0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11")!
    static let parent = CommentID("0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e22")!
    static let template = WorkoutTemplateID("0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e33")!

    /// Each stored form (as two processes wrote it) and the action it holds.
    static let stored: [(json: [String], action: Action)] = [
        (
            [
                #"{"setKudos":{"_0":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11","given":true}}"#,
                #"{"setKudos":{"given":true,"_0":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11"}}"#,
            ],
            .setKudos(post, given: true)
        ),
        (
            [#"{"setKudos":{"_0":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11","given":false}}"#],
            .setKudos(post, given: false)
        ),
        (
            [#"{"comment":{"_1":{"text":"Strong finish!"},"_0":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11"}}"#],
            .comment(post, CreateCommentRequest(text: "Strong finish!"))
        ),
        (
            [
                #"{"comment":{"_0":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11","_1":{"parent_id":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e22","text":"Eight!"}}}"#,
                #"{"comment":{"_0":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11","_1":{"text":"Eight!","parent_id":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e22"}}}"#,
            ],
            .comment(post, CreateCommentRequest(text: "Eight!", parentID: parent))
        ),
        (
            [
                #"{"createPost":{"_0":{"visibility":"followers","kind":"note","text":"Long run #run"}}}"#,
                #"{"createPost":{"_0":{"text":"Long run #run","visibility":"followers","kind":"note"}}}"#,
            ],
            .createPost(CreatePostRequest(kind: .note, text: "Long run #run", visibility: .followers))
        ),
        (
            [
                #"{"createPost":{"_0":{"text":"Legs","kind":"workout","workout":{"end_time":"2025-12-29T10:20:00Z","start_time":"2025-12-29T09:20:00Z","type":"strength","template_id":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e33","notes":"Felt strong","exercises":[{"name":"Squat","sets":[{"rpe":8,"set_type":"normal","weight_kg":100,"reps":5},{"set_type":"warmup","weight_kg":60,"reps":10}]},{"name":"Row","cardio":{"duration_s":480,"distance_m":2000}}],"title":"Leg day","completed":true}}}}"#,
                #"{"createPost":{"_0":{"workout":{"start_time":"2025-12-29T09:20:00Z","exercises":[{"sets":[{"reps":5,"weight_kg":100,"rpe":8,"set_type":"normal"},{"reps":10,"weight_kg":60,"set_type":"warmup"}],"name":"Squat"},{"cardio":{"distance_m":2000,"duration_s":480},"name":"Row"}],"title":"Leg day","type":"strength","completed":true,"notes":"Felt strong","end_time":"2025-12-29T10:20:00Z","template_id":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e33"},"kind":"workout","text":"Legs"}}}"#,
            ],
            .createPost(CreatePostRequest(kind: .workout, text: "Legs", workout: legDay))
        ),
        (
            // A note to a group (issue 28), as this version stores it.
            [
                #"{"createPost":{"_0":{"group_id":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e44","kind":"note","text":"Hill sprints at 7"}}}"#
            ],
            .createPost(
                CreatePostRequest(
                    kind: .note, text: "Hill sprints at 7", groupID: GroupID("0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e44")!))
        ),
        ([#"{"follow":{"_0":"Ana"}}"#], .follow("Ana")),
        ([#"{"unfollow":{"_0":"ana"}}"#], .unfollow("ana")),
        (
            [
                #"{"updateProfile":{"_0":{"privacy":"private","display_name":"Bea","units":"lb","bio":"Runs\/lifts","time_zone":"Europe\/Paris"}}}"#,
                #"{"updateProfile":{"_0":{"privacy":"private","bio":"Runs\/lifts","time_zone":"Europe\/Paris","display_name":"Bea","units":"lb"}}}"#,
            ],
            .updateProfile(
                UpdateAccountRequest(
                    displayName: "Bea", bio: "Runs/lifts", units: .lb, timeZone: "Europe/Paris", privacy: .private))
        ),
        ([#"{"updateProfile":{"_0":{"bio":""}}}"#], .updateProfile(UpdateAccountRequest(bio: ""))),
    ]

    static let legDay = WorkoutRecord(
        title: "Leg day", type: .strength, startTime: Date(timeIntervalSince1970: 1_767_000_000),
        endTime: Date(timeIntervalSince1970: 1_767_003_600),
        exercises: [
            ExerciseEntry(
                name: "Squat",
                sets: [
                    WorkoutSet(weightKg: 100, reps: 5, rpe: 8), WorkoutSet(weightKg: 60, reps: 10, setType: .warmup),
                ]
            ),
            ExerciseEntry(name: "Row", cardio: CardioMetrics(distanceM: 2000, durationS: 480)),
        ],
        templateID: template, notes: "Felt strong")

    @Test("every action stored before issue 23 still decodes, whatever the order of its keys")
    func storedActionsDecode() throws {
        for (forms, action) in Self.stored {
            for json in forms {
                // Given what an earlier version stored
                // When this version reads it
                let decoded = try WireJSON.decoder().decode(Action.self, from: Data(json.utf8))
                // Then it is the same action
                #expect(decoded == action, "\(json)")
            }
        }
    }

    /// What this version writes: the same form, keys sorted (`WireJSON`).
    static let written: [(json: String, action: Action)] = [
        (#"{"setKudos":{"_0":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11","given":true}}"#, .setKudos(post, given: true)),
        (
            #"{"comment":{"_0":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11","_1":{"parent_id":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e22","text":"Eight!"}}}"#,
            .comment(post, CreateCommentRequest(text: "Eight!", parentID: parent))
        ),
        (
            #"{"createPost":{"_0":{"kind":"note","text":"Long run #run","visibility":"followers"}}}"#,
            .createPost(CreatePostRequest(kind: .note, text: "Long run #run", visibility: .followers))
        ),
        (
            #"{"createPost":{"_0":{"kind":"workout","text":"Legs","workout":{"completed":true,"end_time":"2025-12-29T10:20:00Z","exercises":[{"name":"Squat","sets":[{"reps":5,"rpe":8,"set_type":"normal","weight_kg":100},{"reps":10,"set_type":"warmup","weight_kg":60}]},{"cardio":{"distance_m":2000,"duration_s":480},"name":"Row"}],"notes":"Felt strong","start_time":"2025-12-29T09:20:00Z","template_id":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e33","title":"Leg day","type":"strength"}}}}"#,
            .createPost(CreatePostRequest(kind: .workout, text: "Legs", workout: legDay))
        ),
        (
            #"{"updatePost":{"_0":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11","_1":{"text":"Legs, corrected","workout":{"completed":true,"exercises":[{"name":"Squat","sets":[{"reps":5,"set_type":"normal","weight_kg":95}]}],"start_time":"2025-12-29T09:20:00Z","title":"Leg day","type":"strength"}}}}"#,
            .updatePost(
                post,
                UpdatePostRequest(
                    text: "Legs, corrected",
                    workout: WorkoutRecord(
                        title: "Leg day", type: .strength, startTime: legDay.startTime,
                        exercises: [ExerciseEntry(name: "Squat", sets: [WorkoutSet(weightKg: 95, reps: 5)])])))
        ),
        (#"{"follow":{"_0":"Ana"}}"#, .follow("Ana")),
        (#"{"unfollow":{"_0":"ana"}}"#, .unfollow("ana")),
        (
            #"{"updateProfile":{"_0":{"bio":"Runs/lifts","display_name":"Bea","privacy":"private","time_zone":"Europe/Paris","units":"lb"}}}"#,
            .updateProfile(
                UpdateAccountRequest(
                    displayName: "Bea", bio: "Runs/lifts", units: .lb, timeZone: "Europe/Paris", privacy: .private))
        ),
        // Issue 40: the inbox's marks and archives.
        (
            #"{"markNotificationsSeen":{"upTo":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e44"}}"#,
            .markNotificationsSeen(upTo: NotificationID("0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e44"))
        ),
        (#"{"markNotificationsRead":{}}"#, .markNotificationsRead(upTo: nil)),
        (#"{"markNotificationGroupRead":{"_0":"kudos-0190f3a2"}}"#, .markNotificationGroupRead("kudos-0190f3a2")),
        (#"{"archiveNotificationGroup":{"_0":"follow-2026-12-04"}}"#, .archiveNotificationGroup("follow-2026-12-04")),
        (#"{"answerFollowRequest":{"_0":"bea","approve":true}}"#, .answerFollowRequest("bea", approve: true)),
        (
            #"{"answerJoinRequest":{"_0":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e44","_1":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e55","approve":false}}"#,
            .answerJoinRequest(
                GroupID("0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e44")!, UserID("0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e55")!,
                approve: false)
        ),
    ]

    @Test("this version writes each action in the same form, keys sorted, and reads it back")
    func writtenForm() throws {
        for (json, action) in Self.written {
            // Given an action
            // When it is written for the outbox
            let text = String(decoding: try WireJSON.encoder().encode(action), as: UTF8.self)
            // Then it is the pinned form, and reads back as the action
            #expect(text == json)
            #expect(try WireJSON.decoder().decode(Action.self, from: Data(json.utf8)) == action)
        }
    }

    @Test("an action this version does not know is refused, not mistaken for another")
    func unknownAction() {
        for json in [#"{"share":{"_0":"x"}}"#, #"{"follow":{"_0":"ana"},"unfollow":{"_0":"ana"}}"#, "{}"] {
            #expect(throws: DecodingError.self, "\(json)") {
                try WireJSON.decoder().decode(Action.self, from: Data(json.utf8))
            }
        }
    }

    @Test("an action stored in two key orders goes out as one body, the same on every try")
    func oneBody() async throws {
        for (forms, _) in Self.stored where forms.count == 2 {
            // Given the same action as two processes stored it, each in a queue of its own
            let transport = RecordingTransport()
            let client = SpotterClient(
                baseURL: URL(string: "http://127.0.0.1:9")!,
                tokens: MemoryTokenStore(SessionTokens(accessToken: "a", refreshToken: "r")),
                transport: transport, retry: .none)
            for json in forms {
                let queue = try ActionQueue(path: nil, client: client)
                try await queue.enqueue(try WireJSON.decoder().decode(Action.self, from: Data(json.utf8)))
                // When each queue tries to send it, twice (the second without waiting out the backoff)
                await queue.drain()
                await queue.drain(ignoringBackoff: true)
            }
            // Then every try sent the same bytes
            let bodies = transport.bodies
            #expect(bodies.count == 4)
            #expect(Set(bodies).count == 1, "\(bodies.map { String(decoding: $0, as: UTF8.self) })")
        }
    }
}

/// Records each request's body and answers none of them, as a dead network would.
final class RecordingTransport: HTTPTransport {
    private let recorded = NIOLockedValueBox<[Data]>([])

    var bodies: [Data] { recorded.withLockedValue { $0 } }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        recorded.withLockedValue { $0.append(request.body ?? Data()) }
        throw URLError(.notConnectedToInternet)
    }
}
