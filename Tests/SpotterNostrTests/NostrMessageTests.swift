import Foundation
import SpotterNostr
import Testing

/// Any JSON, compared by value (object key order does not matter).
indirect enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    init(_ text: String) throws { self = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }
}

@Suite("Client and relay messages against literal JSON")
struct NostrMessageTests {
    static let key = try! NostrSecretKey(hex: String(repeating: "0c", count: 32))
    static let event = try! NostrEvent.sign(
        kind: .workoutRecord, tags: [["t", "strength"]], content: "Squat 5×5 \"heavy\"\n/", createdAt: 1_764_000_000,
        with: key)
    static let eventJSON =
        #"{"id":"\#(event.id)","pubkey":"\#(event.pubkey)","created_at":1764000000,"kind":1301,"#
        + #""tags":[["t","strength"]],"content":"Squat 5×5 \"heavy\"\n/","sig":"\#(event.sig)"}"#
    static let author = key.publicKey.rawValue

    static let clientMessages: [(String, NostrClientMessage)] = [
        (#"["EVENT",\#(eventJSON)]"#, .event(event)),
        (#"["AUTH",\#(eventJSON)]"#, .auth(event)),
        (#"["CLOSE","sub 1"]"#, .close(subscription: "sub 1")),
        (#"["REQ","feed"]"#, .request(subscription: "feed", filters: [])),
        (
            ##"["REQ","feed",{"authors":["\##(author)"],"kinds":[1301,33401],"#t":["strength"],"since":10,"until":20,"limit":20},{"ids":["\##(event.id)"]},{"#e":["x"],"#p":["y"],"search":"squat"}]"##,
            .request(
                subscription: "feed",
                filters: [
                    NostrFilter(
                        authors: [key.publicKey], kinds: [1301, 33401], tags: ["t": ["strength"]], since: 10, until: 20,
                        limit: 20),
                    NostrFilter(ids: [event.id]),
                    NostrFilter(tags: ["e": ["x"], "p": ["y"]], search: "squat"),
                ])
        ),
        (
            ##"["COUNT","c",{"kinds":[7],"#e":["\##(event.id)"]}]"##,
            .count(subscription: "c", filters: [NostrFilter(kinds: [.reaction], tags: ["e": [event.id.rawValue]])])
        ),
    ]

    static let relayMessages: [(String, NostrRelayMessage)] = [
        (#"["EVENT","feed",\#(eventJSON)]"#, .event(subscription: "feed", event)),
        (#"["OK","\#(event.id)",true,""]"#, .ok(event.id, accepted: true, message: "")),
        (
            #"["OK","\#(event.id)",false,"restricted: link this key to a Spotter account first"]"#,
            .ok(event.id, accepted: false, message: "restricted: link this key to a Spotter account first")
        ),
        (#"["EOSE","feed"]"#, .endOfStoredEvents(subscription: "feed")),
        (
            #"["CLOSED","feed","auth-required: sign in first"]"#,
            .closed(subscription: "feed", message: "auth-required: sign in first")
        ),
        (#"["NOTICE","error: could not parse"]"#, .notice("error: could not parse")),
        (#"["AUTH","challenge-1"]"#, .auth(challenge: "challenge-1")),
        (#"["COUNT","c",{"count":42}]"#, .count(subscription: "c", count: 42)),
    ]

    @Test("every client message reads from its literal JSON and writes the same JSON back")
    func clientMessages() throws {
        for (json, message) in Self.clientMessages {
            #expect(try NostrClientMessage(json: json) == message)
            #expect(try JSONValue(message.json) == JSONValue(json), "\(message.json)")
        }
    }

    @Test("every relay message reads from its literal JSON and writes the same JSON back")
    func relayMessages() throws {
        for (json, message) in Self.relayMessages {
            #expect(try NostrRelayMessage(json: json) == message)
            #expect(try JSONValue(message.json) == JSONValue(json), "\(message.json)")
        }
    }

    @Test("OK and CLOSED without a message read as an empty one")
    func optionalMessages() throws {
        #expect(
            try NostrRelayMessage(json: #"["OK","\#(Self.event.id)",true]"#)
                == .ok(Self.event.id, accepted: true, message: ""))
        #expect(try NostrRelayMessage(json: #"["CLOSED","s"]"#) == .closed(subscription: "s", message: ""))
    }

    @Test("an event's JSON keeps / and non-ASCII unescaped, as relays write it")
    func eventJSON() {
        #expect(Self.event.json.contains(#"\n/""#))
        #expect(Self.event.json.contains("5×5"))
    }

    @Test(
        "unknown filter fields, multi-letter tags, bad ids, unknown types and malformed arrays are refused",
        arguments: [
            #"["REQ","s",{"kinds":[1],"foo":1}]"#,
            ##"["REQ","s",{"#tt":["x"]}]"##,
            ##"["REQ","s",{"#":["x"]}]"##,
            ##"["REQ","s",{"#1":["x"]}]"##,
            ##"["REQ","s",{"#é":["x"]}]"##,
            #"["REQ","s",{"ids":["ABC"]}]"#,
            #"["REQ","s",{"authors":["\#(String(repeating: "A", count: 64))"]}]"#,
            #"["REQ","s",{"kinds":["1"]}]"#,
            ##"["REQ","s",{"#t":"running"}]"##,
            #"["REQ","s",{"limit":-1.5}]"#,
            #"["REQ","s",[]]"#,
            #"["REQ"]"#,
            #"["COUNT","c",{"count":1}]"#,
            #"["HELLO","s"]"#,
            #"["EVENT",{"id":"x"}]"#,
            #"{"EVENT":1}"#,
            #"[]"#,
            "not json",
        ])
    func refusesClientMessage(_ json: String) {
        #expect(throws: (any Error).self) { try NostrClientMessage(json: json) }
    }

    @Test("a relay's COUNT needs {\"count\": n} and OK needs a boolean")
    func refusesRelayMessage() {
        #expect(throws: (any Error).self) { try NostrRelayMessage(json: #"["COUNT","c",42]"#) }
        #expect(throws: (any Error).self) { try NostrRelayMessage(json: #"["COUNT","c",{"n":42}]"#) }
        #expect(throws: (any Error).self) { try NostrRelayMessage(json: #"["OK","\#(Self.event.id)","true",""]"#) }
        #expect(throws: (any Error).self) { try NostrRelayMessage(json: #"["EOSE"]"#) }
        #expect(throws: (any Error).self) { try NostrRelayMessage(json: #"["REQ","s"]"#) }
    }
}
