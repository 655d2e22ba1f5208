import Foundation
import SpotterNostr
import Testing

@Suite("NIP-98 HTTP authorization")
struct NIP98Tests {
    static let url = "https://spotter.example/api/v1/auth/nostr"
    static let key = try! NostrSecretKey(hex: String(repeating: "0d", count: 32))
    static let now = Date(timeIntervalSince1970: 1_764_000_000)
    static let createdAt: Int64 = 1_764_000_000

    static func header(for event: NostrEvent) -> String { "Nostr " + Data(event.json.utf8).base64EncodedString() }

    static func signed(
        kind: NostrKind = .httpAuthentication, tags: [[String]]? = nil, at createdAt: Int64 = createdAt,
        key: NostrSecretKey = key
    ) throws -> NostrEvent {
        try NostrEvent.sign(
            kind: kind, tags: tags ?? [["u", url], ["method", "POST"]], content: "", createdAt: createdAt, with: key)
    }

    @Test("a header the builder made validates and names its signer")
    func roundTrip() async throws {
        // Given a header made by the client-side builder
        let header = try await NIP98.authorizationHeader(
            url: Self.url, method: "post", key: Self.key, createdAt: Self.createdAt)
        #expect(header.hasPrefix("Nostr "))
        // When the server validates it
        let event = try NIP98.validate(header: header, url: Self.url, method: "POST", now: Self.now)
        // Then it is the signer's kind 27235 event for this URL and method
        #expect(event.pubkey == Self.key.publicKey)
        #expect(event.kind == .httpAuthentication)
        #expect(event.firstTagValue("method") == "POST")
    }

    @Test("the builder signs now when no time is given")
    func signsNow() async throws {
        let header = try await NIP98.authorizationHeader(url: Self.url, method: "POST", key: Self.key)
        #expect(throws: Never.self) { try NIP98.validate(header: header, url: Self.url, method: "POST") }
    }

    @Test("a body's hash in the payload tag must be that body's")
    func payload() async throws {
        let body = Array(#"{"name":"Ana"}"#.utf8)
        let header = try await NIP98.authorizationHeader(
            url: Self.url, method: "PUT", body: body, key: Self.key, createdAt: Self.createdAt)
        #expect(throws: Never.self) {
            try NIP98.validate(header: header, url: Self.url, method: "PUT", body: body, now: Self.now)
        }
        #expect(throws: NostrAuthError.wrongPayload) {
            try NIP98.validate(header: header, url: Self.url, method: "PUT", body: body + [0x20], now: Self.now)
        }
    }

    @Test("an event up to the window old or ahead is accepted, one second more is not")
    func freshness() throws {
        for offset: Int64 in [-60, 0, 60] {
            let header = Self.header(for: try Self.signed(at: Self.createdAt + offset))
            #expect(throws: Never.self) {
                try NIP98.validate(header: header, url: Self.url, method: "POST", now: Self.now)
            }
        }
        let old = Self.header(for: try Self.signed(at: Self.createdAt - 61))
        #expect(throws: NostrAuthError.tooOld(seconds: 60)) {
            try NIP98.validate(header: old, url: Self.url, method: "POST", now: Self.now)
        }
        let ahead = Self.header(for: try Self.signed(at: Self.createdAt + 61))
        #expect(throws: NostrAuthError.tooNew(seconds: 60)) {
            try NIP98.validate(header: ahead, url: Self.url, method: "POST", now: Self.now)
        }
        #expect(throws: Never.self) {
            try NIP98.validate(header: old, url: Self.url, method: "POST", now: Self.now, window: 120)
        }
    }

    @Test(
        "each refusal says why",
        arguments: [
            ("Bearer abc", NostrAuthError.malformedHeader),
            ("Nostr", .malformedHeader),
            ("Nostr !!!not-base64", .malformedEvent),
            ("Nostr " + Data("{}".utf8).base64EncodedString(), .malformedEvent),
        ])
    func malformedHeaders(_ header: String, _ error: NostrAuthError) {
        #expect(throws: error) { try NIP98.validate(header: header, url: Self.url, method: "POST", now: Self.now) }
    }

    @Test("a wrong kind, URL, method, missing tag, forged id or signature is refused")
    func refusals() throws {
        func refuses(_ event: NostrEvent, _ error: NostrAuthError, method: String = "POST") {
            #expect(throws: error) {
                try NIP98.validate(header: Self.header(for: event), url: Self.url, method: method, now: Self.now)
            }
        }
        refuses(
            try Self.signed(kind: .clientAuthentication),
            .wrongKind(.clientAuthentication, expected: .httpAuthentication))
        refuses(try Self.signed(tags: [["u", Self.url + "/"], ["method", "POST"]]), .wrongURL)
        refuses(
            try Self.signed(tags: [["u", "https://evil.example/api/v1/auth/nostr"], ["method", "POST"]]), .wrongURL)
        refuses(try Self.signed(tags: [["u", Self.url + "?x=1"], ["method", "POST"]]), .wrongURL)
        refuses(try Self.signed(tags: [["method", "POST"]]), .missingTag("u"))
        refuses(try Self.signed(tags: [["u", Self.url]]), .missingTag("method"))
        refuses(try Self.signed(), .wrongMethod, method: "GET")
        var forgedID = try Self.signed()
        forgedID.tags = [["u", "https://other.example/"], ["method", "POST"]]
        refuses(forgedID, .invalidID)
        // Another key's signature over the right id: the id holds, the signature does not.
        var forgedSignature = try Self.signed()
        forgedSignature.sig = try Self.signed(key: NostrSecretKey.generate()).sig
        refuses(forgedSignature, .invalidSignature)
    }

    @Test("refusals read as sentences for NIP-01 prefixes and problem+json")
    func messages() {
        #expect(NostrAuthError.tooOld(seconds: 60).description == "the event is older than 60 seconds")
        #expect(NostrAuthError.wrongURL.description == "the u tag names another URL")
        #expect("auth-required: \(NostrAuthError.wrongChallenge)".hasPrefix("auth-required: the challenge tag"))
    }
}

@Suite("NIP-42 relay authentication")
struct NIP42Tests {
    static let relay = "wss://spotter.example/relay"
    static let key = try! NostrSecretKey(hex: String(repeating: "0e", count: 32))
    static let now = Date(timeIntervalSince1970: 1_764_000_000)

    static func auth(
        relay: String = relay, challenge: String = "c-1", kind: NostrKind = .clientAuthentication,
        at createdAt: Int64 = 1_764_000_000, tags: [[String]]? = nil
    ) throws -> NostrEvent {
        try NostrEvent.sign(
            kind: kind, tags: tags ?? [["relay", relay], ["challenge", challenge]], content: "", createdAt: createdAt,
            with: key)
    }

    @Test("an event the builder made validates and names its signer")
    func roundTrip() async throws {
        let event = try await NIP42.authEvent(
            relayURL: Self.relay, challenge: "c-1", key: Self.key, createdAt: 1_764_000_000)
        #expect(
            try NIP42.validate(event: event, relayURL: Self.relay, challenge: "c-1", now: Self.now)
                == Self.key.publicKey)
    }

    @Test(
        "the relay tag names this relay whatever the case of scheme and host, a trailing slash or a default port",
        arguments: ["wss://spotter.example/relay/", "WSS://Spotter.Example/relay", "wss://spotter.example:443/relay"])
    func sameRelay(_ relay: String) throws {
        #expect(throws: Never.self) {
            try NIP42.validate(event: Self.auth(relay: relay), relayURL: Self.relay, challenge: "c-1", now: Self.now)
        }
    }

    @Test(
        "another scheme, host, port or path is another relay",
        arguments: [
            "ws://spotter.example/relay", "wss://evil.example/relay", "wss://spotter.example:8443/relay",
            "wss://spotter.example/", "wss://spotter.example/relay/other", "not a url", "",
        ])
    func otherRelay(_ relay: String) throws {
        #expect(throws: NostrAuthError.wrongRelay) {
            try NIP42.validate(event: Self.auth(relay: relay), relayURL: Self.relay, challenge: "c-1", now: Self.now)
        }
    }

    @Test("a wrong challenge, kind, missing tag or stale event is refused")
    func refusals() throws {
        func refuses(_ event: NostrEvent, _ error: NostrAuthError, window: TimeInterval = 600) {
            #expect(throws: error) {
                try NIP42.validate(event: event, relayURL: Self.relay, challenge: "c-1", now: Self.now, window: window)
            }
        }
        refuses(try Self.auth(challenge: "c-2"), .wrongChallenge)
        refuses(try Self.auth(challenge: "C-1"), .wrongChallenge)
        refuses(
            try Self.auth(kind: .httpAuthentication), .wrongKind(.httpAuthentication, expected: .clientAuthentication))
        refuses(try Self.auth(tags: [["challenge", "c-1"]]), .missingTag("relay"))
        refuses(try Self.auth(tags: [["relay", Self.relay]]), .missingTag("challenge"))
        refuses(try Self.auth(at: 1_764_000_000 - 601), .tooOld(seconds: 600))
        refuses(try Self.auth(at: 1_764_000_000 + 601), .tooNew(seconds: 600))
        // Key linking uses the same event with a one-minute window.
        refuses(try Self.auth(at: 1_764_000_000 - 61), .tooOld(seconds: 60), window: 60)
        var forged = try Self.auth()
        forged.pubkey = try NostrSecretKey.generate().publicKey
        refuses(forged, .invalidID)
    }
}
