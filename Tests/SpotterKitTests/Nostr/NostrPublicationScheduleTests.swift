import Foundation
import Testing

@testable import SpotterKit

/// What follows each try of a publication, without a relay: delivered, refused for good, or a wait that
/// doubles up to the outbox's cap.
@Suite("Nostr publication schedule")
struct NostrPublicationScheduleTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func step(
        _ answer: Result<NostrPublishResult, NostrRelayError>, attempts: Int = 1
    )
        -> NostrPublicationSchedule.Step
    {
        NostrPublicationSchedule.step(after: answer, attempts: attempts, now: now, policy: .outbox, random: 1)
    }

    @Test("OK true and duplicate: are delivered; invalid:, blocked:, restricted: and pow: are refused for good")
    func answers() {
        #expect(step(.success(.init(accepted: true, message: ""))) == .delivered(""))
        #expect(step(.success(.init(accepted: false, message: "duplicate: seen"))) == .delivered("duplicate: seen"))
        for message in ["invalid: bad sig", "blocked: no", "restricted: link a key", "pow: 20 bits"] {
            #expect(step(.success(.init(accepted: false, message: message))) == .refused(message))
        }
    }

    @Test("no answer, a rate limit or an error waits, doubling from 1 s to 5 minutes")
    func waits() {
        var waits: [TimeInterval] = []
        for attempt in 1...12 {
            guard case .retry(let at, let because) = step(.failure(.unreachable("refused")), attempts: attempt) else {
                Issue.record("expected a retry")
                return
            }
            #expect(because.contains("cannot be reached"))
            waits.append(at.timeIntervalSince(now))
        }
        #expect(waits == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300])
        guard case .retry(_, let because) = step(.success(.init(accepted: false, message: "rate-limited: slow"))) else {
            Issue.record("expected a retry")
            return
        }
        #expect(because == "rate-limited: slow")
        if case .retry = step(.failure(.timedOut)) {} else { Issue.record("a timeout waits") }
    }

    @Test("relay addresses keep one spelling; Spotter's relay follows the server's scheme")
    func addresses() {
        #expect(NostrRelayURL("WSS://Relay.Example/")?.rawValue == "wss://relay.example")
        #expect(NostrRelayURL("wss://relay.example/nostr")?.rawValue == "wss://relay.example/nostr")
        #expect(NostrRelayURL("https://relay.example") == nil)
        #expect(NostrRelayURL("wss://relay.example?x=1") == nil)
        #expect(NostrRelayURL("wss://") == nil)
        #expect(
            NostrRelayURL.spotter(server: URL(string: "https://spotter.example")!).rawValue
                == "wss://spotter.example/relay")
        #expect(
            NostrRelayURL.spotter(server: URL(string: "http://127.0.0.1:8080/")!).rawValue
                == "ws://127.0.0.1:8080/relay")
    }
}
