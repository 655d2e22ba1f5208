import Foundation
import SpotterModels
import Testing

/// The wire's one JSON configuration: the same value is the same bytes, in any process (issue 23).
@Suite("Wire JSON")
struct WireJSONTests {
    /// Two equal dictionaries whose keys iterate in different orders: one grown key by key, one made with
    /// room for many. A Swift dictionary's order depends on its capacity and on a per-process seed, which is
    /// how one queued action left two processes as two different bodies.
    static func sameDictionaryTwoOrders() throws -> ([String: String], [String: String]) {
        let keys = (0..<12).map { "key\($0)" }
        var grown: [String: String] = [:]
        for key in keys { grown[key] = "v" }
        var roomy = [String: String](minimumCapacity: 1000)
        for key in keys.reversed() { roomy[key] = "v" }
        try #require(grown == roomy)
        try #require(Array(grown.keys) != Array(roomy.keys), "the two dictionaries iterate in one order")
        return (grown, roomy)
    }

    @Test("one value is one body, however the dictionaries in it were built")
    func deterministic() throws {
        // Given one analytics batch whose properties were built in two ways
        let (grown, roomy) = try Self.sameDictionaryTwoOrders()
        let at = Date(timeIntervalSince1970: 1_795_376_353)
        let first = AnalyticsBatch(events: [AnalyticsEvent(name: "screen.feed", occurredAt: at, properties: grown)])
        let second = AnalyticsBatch(events: [AnalyticsEvent(name: "screen.feed", occurredAt: at, properties: roomy)])
        // When both are encoded
        let bytes = try (WireJSON.encoder().encode(first), WireJSON.encoder().encode(second))
        // Then the bytes are the same, keys in order
        #expect(bytes.0 == bytes.1)
        let text = String(decoding: bytes.0, as: UTF8.self)
        #expect(
            text.hasPrefix(
                #"{"events":[{"name":"screen.feed","occurred_at":"2026-11-22T19:39:13Z","properties":{"key0":"v","key1":"v","key10":"v""#
            ))
    }

    @Test("dates are RFC 3339 UTC in whole seconds, slashes are left alone, keys are the types' own")
    func options() throws {
        // Given a request with a date-bearing workout, slashes and camelCase Swift names
        let workout = WorkoutRecord(
            title: "Legs/back", type: .strength, startTime: Date(timeIntervalSince1970: 1_795_376_353.25),
            endTime: Date(timeIntervalSince1970: 1_795_379_953), exercises: [], completed: true)
        let request = CreatePostRequest(kind: .workout, text: "https://example.com/run", workout: workout)
        // When it is encoded
        let text = String(decoding: try WireJSON.encoder().encode(request), as: UTF8.self)
        // Then it reads as the server writes it
        #expect(
            text
                == #"{"kind":"workout","text":"https://example.com/run","workout":{"completed":true,"#
                + #""end_time":"2026-11-22T20:39:13Z","exercises":[],"start_time":"2026-11-22T19:39:13Z","#
                + #""title":"Legs/back","type":"strength"}}"#)
    }

    @Test("what the server writes decodes, dates included")
    func decodes() throws {
        // Given an account as the server sends it
        let json = """
            {"created_at":"2026-11-22T19:39:13Z","display_name":"Ana","id":"01a204c5-116d-7609-9381-2298ea7dea92",
             "username":"ana"}
            """
        // When it is decoded
        let account = try WireJSON.decoder().decode(Account.self, from: Data(json.utf8))
        // Then the date is the instant written
        #expect(account.createdAt == Date(timeIntervalSince1970: 1_795_376_353))
        #expect(account.displayName == "Ana")
    }
}
