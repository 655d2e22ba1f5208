import Foundation
import SpotterModels
import Testing

/// Offline clients replay payloads written by older versions: these literal JSON documents must keep decoding,
/// and what we encode must keep its keys.
@Suite("Wire compatibility")
struct WireCompatibilityTests {
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    @Test("a token response from version 0.1 decodes")
    func tokenResponse() throws {
        let json = """
            {"access_token": "spa_a", "refresh_token": "spr_b", "token_type": "Bearer", "expires_in": 900,
             "user": {"id": "01a204c5-116d-7609-9381-2298ea7dea92", "username": "ana", "email": "ana@example.com",
                      "display_name": "Ana", "created_at": "2026-11-22T19:39:13Z"}}
            """
        let response = try Self.decoder.decode(TokenResponse.self, from: Data(json.utf8))
        #expect(response.accessToken == "spa_a")
        #expect(response.user.id == UserID("01a204c5-116d-7609-9381-2298ea7dea92"))
        #expect(response.user.createdAt == Date(timeIntervalSince1970: 1_795_376_353))
    }

    @Test("an account without an email (Apple sign-in) decodes")
    func accountWithoutEmail() throws {
        let json = """
            {"id": "01a204c5-116d-7609-9381-2298ea7dea92", "username": "athlete", "display_name": "athlete",
             "created_at": "2026-11-22T19:39:13Z"}
            """
        #expect(try Self.decoder.decode(Account.self, from: Data(json.utf8)).email == nil)
    }

    @Test("requests encode with snake_case keys")
    func requestKeys() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let refresh = String(decoding: try encoder.encode(RefreshRequest(refreshToken: "t")), as: UTF8.self)
        #expect(refresh == #"{"refresh_token":"t"}"#)
        let apple = String(
            decoding: try encoder.encode(AppleSigninRequest(identityToken: "j", nonce: "n")), as: UTF8.self)
        #expect(apple == #"{"identity_token":"j","nonce":"n"}"#)
    }

    @Test("a comment from before comments could be edited decodes unedited; an edited one keeps edited_at")
    func commentEditedAt() throws {
        let author = """
            {"id": "01a204c5-116d-7609-9381-2298ea7dea92", "username": "ana", "display_name": "Ana"}
            """
        let old = """
            {"id": "01a204c5-116d-7609-9381-2298ea7dea93", "post_id": "01a204c5-116d-7609-9381-2298ea7dea94",
             "author": \(author), "text": "Nice", "created_at": "2026-11-22T19:39:13Z"}
            """
        let comment = try Self.decoder.decode(SpotterModels.Comment.self, from: Data(old.utf8))
        #expect(comment.text == "Nice" && comment.editedAt == nil)
        let edited = old.replacingOccurrences(
            of: #""text": "Nice""#, with: #""text": "Nice!", "edited_at": "2026-11-22T19:40:13Z""#)
        #expect(
            try Self.decoder.decode(SpotterModels.Comment.self, from: Data(edited.utf8)).editedAt
                == Date(timeIntervalSince1970: 1_795_376_413))
    }

    @Test("a problem document decodes with its field errors")
    func problem() throws {
        let json = """
            {"type": "about:blank", "title": "Unprocessable Content", "status": 422,
             "errors": [{"field": "email", "detail": "is not an email address"}], "request_id": "r1"}
            """
        let problem = try Self.decoder.decode(Problem.self, from: Data(json.utf8))
        #expect(problem.errors == [FieldError(field: "email", detail: "is not an email address")])
        #expect(problem.requestID == "r1")
        #expect(problem.retryAt == nil)
    }

    @Test("a 429 problem carries when to come back; a progress report from before per-exercise progress decodes")
    func retryAtAndOldProgress() throws {
        let limited = """
            {"type": "about:blank", "title": "Too Many Requests", "status": 429,
             "detail": "New accounts can post 5 times an hour; you can post again at 19:39 (in 23 minutes).",
             "retry_at": "2026-11-22T19:39:13Z"}
            """
        let problem = try Self.decoder.decode(Problem.self, from: Data(limited.utf8))
        #expect(problem.retryAt == Date(timeIntervalSince1970: 1_795_376_353))
        let old = """
            {"time_zone": "UTC", "weeks": [{"week_start": "2026-11-16T00:00:00Z", "workouts": 2, "volume_kg": 1500}],
             "current_streak": 1, "longest_streak": 3, "personal_records": []}
            """
        let report = try Self.decoder.decode(ProgressReport.self, from: Data(old.utf8))
        #expect(report.weeks.map(\.workouts) == [2])
        #expect(report.exercises.isEmpty)
    }

    @Test(
        "preferences from before the newer types decode with their defaults; the newer types keep their wire names")
    func notificationTypes() throws {
        let old = """
            {"push": true, "in_app": true, "email": false, "badge": true,
             "types": {"kudos": "daily", "group_removed": "disabled"}, "max_per_hour": 5}
            """
        let preferences = try Self.decoder.decode(NotificationPreferences.self, from: Data(old.utf8))
        #expect(preferences.setting(for: .kudos) == .daily && preferences.maxPerHour == 5)
        let names = ["group_banned", "group_awaiting_keys", "guardian_invitation", "follow_request_approved"]
        for name in names {
            let type = try #require(NotificationType(rawValue: name), "\(name)")
            #expect(preferences.setting(for: type) == .enabled, "\(name)")
        }
        let inbox = """
            {"group_key": "group-keys-01a204c5-116d-7609-9381-2298ea7dea92", "type": "group_awaiting_keys",
             "notifications_count": 1, "sample_actors": [], "latest_at": "2026-11-22T19:39:13Z",
             "most_recent_notification_id": "01a204c5-116d-7609-9381-2298ea7dea93",
             "text": "bea joined Family and is waiting for keys: open the group to share them", "unread": true}
            """
        let group = try Self.decoder.decode(NotificationGroup.self, from: Data(inbox.utf8))
        #expect(group.type.rawValue == "group_awaiting_keys")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let written = try JSONSerialization.jsonObject(with: encoder.encode(preferences)) as? [String: Any]
        let types = try #require(written?["types"] as? [String: String])
        #expect(Set(names).isSubset(of: types.keys))
    }

    @Test("a malformed ID is refused, not mangled")
    func badID() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([UserID].self, from: Data(#"["nope"]"#.utf8)) }
    }
}

@Suite("UUIDv7")
struct UUIDv7Tests {
    @Test("carries version 7, the RFC variant, and the millisecond time")
    func layout() {
        let date = Date(timeIntervalSince1970: 1_795_462_753.123)
        let id = UUIDv7.make(at: date)
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        #expect(bytes[6] >> 4 == 7)
        #expect(bytes[8] >> 6 == 0b10)
        let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_795_462_753_123)
    }

    @Test("sorts by creation time")
    func ordering() {
        let ids = (0..<50).map { UUIDv7.make(at: Date(timeIntervalSince1970: 1_800_000_000 + Double($0))) }
        #expect(ids.map { $0.uuidString } == ids.map { $0.uuidString }.sorted())
    }

    @Test("tells its millisecond, and the lowest id of a millisecond sorts before every id made in it or later")
    func timeBounds() {
        let date = Date(timeIntervalSince1970: 1_795_462_753.123)
        let id = UUIDv7.make(at: date)
        #expect(abs(UUIDv7.date(of: id).timeIntervalSince(date)) < 0.001)
        let lowest = UUIDText.format(UUIDv7.lowest(at: date))
        #expect(lowest < UUIDText.format(id))
        #expect(UUIDText.format(UUIDv7.lowest(at: date.addingTimeInterval(0.001))) > UUIDText.format(id))
        #expect(UUIDText.format(UUIDv7.make(at: date.addingTimeInterval(-0.001))) < lowest)
    }
}

@Suite("UUIDv7 within one millisecond")
struct UUIDv7CounterTests {
    @Test("ids made in the same millisecond sort in the order they were made, even interleaved")
    func monotonic() {
        let a = Date(timeIntervalSince1970: 1_800_000_000.5)
        let b = Date(timeIntervalSince1970: 1_700_000_000.5)
        var first: [String] = []
        var second: [String] = []
        for _ in 0..<200 {
            first.append(UUIDv7.make(at: a).uuidString)
            second.append(UUIDv7.make(at: b).uuidString)
        }
        #expect(first == first.sorted())
        #expect(second == second.sorted())
        #expect(Set(first).count == 200)
    }

    @Test("more ids than one millisecond's counter holds still sort in order, among thousands of other instants")
    func pastTheCounter() {
        // A test suite's fixed clock: one instant used all along, while other tests use thousands of others.
        let busy = Date(timeIntervalSince1970: 1_750_000_000.25)
        var ids = (0..<5000).map { _ in UUIDv7.make(at: busy).uuidString }
        for offset in 0..<3000 {
            _ = UUIDv7.make(at: Date(timeIntervalSince1970: 1_600_000_000 + Double(offset)))
            if offset % 500 == 0 { ids.append(UUIDv7.make(at: busy).uuidString) }
        }
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
    }

    @Test("a millisecond is remembered however many other instants are used before its next id")
    func rememberedWhileOthersPass() {
        // What the full suite did on CI: another test sprayed thousands of instants between two ids of one
        // millisecond, the millisecond was forgotten and its count restarted below where it had been. 2,049
        // ids put its counter above any restart point (restarts begin below 0x800), so a forgotten millisecond
        // always shows here as an id that sorts too early.
        let held = Date(timeIntervalSince1970: 1_650_000_000.75)
        var ids = (0..<2049).map { _ in UUIDv7.make(at: held).uuidString }
        for offset in 0..<5000 {
            _ = UUIDv7.make(at: Date(timeIntervalSince1970: 1_550_000_000 + Double(offset)))
        }
        ids.append(UUIDv7.make(at: held).uuidString)
        #expect(ids == ids.sorted())
    }
}
