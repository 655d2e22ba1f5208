import Foundation
import SpotterNostr
import Testing

@Suite("Filters match as NIP-01 says")
struct NostrFilterTests {
    static let alice = try! NostrSecretKey(hex: String(repeating: "0a", count: 32))
    static let bob = try! NostrSecretKey(hex: String(repeating: "0b", count: 32))

    static func event(
        _ key: NostrSecretKey = alice, kind: NostrKind = .textNote, tags: [[String]] = [], content: String = "",
        at createdAt: Int64 = 1000
    ) -> NostrEvent {
        try! NostrEvent.sign(kind: kind, tags: tags, content: content, createdAt: createdAt, with: key)
    }

    @Test("an empty filter matches every event")
    func emptyFilter() {
        #expect(NostrFilter().matches(Self.event()))
        #expect(NostrFilter(limit: 0).matches(Self.event(kind: 33401)))
    }

    @Test("ids, authors and kinds match when the event's is among those listed")
    func listedValues() {
        let note = Self.event()
        let other = Self.event(Self.bob, kind: .workoutRecord)
        #expect(NostrFilter(ids: [note.id]).matches(note))
        #expect(!NostrFilter(ids: [other.id]).matches(note))
        #expect(NostrFilter(ids: [other.id, note.id]).matches(note))
        #expect(!NostrFilter(ids: []).matches(note))
        #expect(NostrFilter(authors: [Self.bob.publicKey, Self.alice.publicKey]).matches(note))
        #expect(!NostrFilter(authors: [Self.bob.publicKey]).matches(note))
        #expect(NostrFilter(kinds: [.workoutRecord]).matches(other))
        #expect(!NostrFilter(kinds: [.workoutRecord, .exerciseTemplate]).matches(note))
        // Every condition must hold: the right author of the wrong kind is no match.
        #expect(!NostrFilter(authors: [Self.alice.publicKey], kinds: [.workoutRecord]).matches(note))
        #expect(NostrFilter(ids: [other.id], authors: [Self.bob.publicKey], kinds: [.workoutRecord]).matches(other))
    }

    @Test("since and until are inclusive")
    func timeBounds() {
        let event = Self.event(at: 1000)
        #expect(NostrFilter(since: 1000).matches(event))
        #expect(!NostrFilter(since: 1001).matches(event))
        #expect(NostrFilter(until: 1000).matches(event))
        #expect(!NostrFilter(until: 999).matches(event))
        #expect(NostrFilter(since: 1000, until: 1000).matches(event))
        #expect(!NostrFilter(since: 1001, until: 999).matches(event))
    }

    @Test("a tag condition matches a tag of that name with one of its values; several must all hold")
    func tagConditions() {
        let event = Self.event(tags: [
            ["t", "running"], ["t", "5k"], ["e", String(repeating: "e", count: 64), "wss://relay", "root"],
            ["p", Self.bob.publicKey.rawValue], ["T", "upper"], ["x"],
        ])
        #expect(NostrFilter(tags: ["t": ["running"]]).matches(event))
        #expect(NostrFilter(tags: ["t": ["cycling", "5k"]]).matches(event))
        #expect(!NostrFilter(tags: ["t": ["Running"]]).matches(event))  // values compare exactly
        #expect(!NostrFilter(tags: ["t": []]).matches(event))
        #expect(NostrFilter(tags: ["e": [String(repeating: "e", count: 64)]]).matches(event))
        #expect(!NostrFilter(tags: ["e": ["wss://relay"]]).matches(event))  // only the first value counts
        #expect(NostrFilter(tags: ["p": [Self.bob.publicKey.rawValue]]).matches(event))
        #expect(!NostrFilter(tags: ["p": [Self.alice.publicKey.rawValue]]).matches(event))
        #expect(NostrFilter(tags: ["T": ["upper"]]).matches(event))
        #expect(!NostrFilter(tags: ["t": ["upper"]]).matches(event))  // names are case-sensitive
        #expect(!NostrFilter(tags: ["x": [""]]).matches(event))  // a tag with no value matches nothing
        // Several conditions: all of them.
        #expect(NostrFilter(tags: ["t": ["5k"], "p": [Self.bob.publicKey.rawValue]]).matches(event))
        #expect(!NostrFilter(tags: ["t": ["5k"], "p": [Self.alice.publicKey.rawValue]]).matches(event))
        #expect(!NostrFilter(tags: ["t": ["running"], "d": ["anything"]]).matches(event))
    }

    @Test("search matches when every word appears in the content, ignoring case and key:value extensions")
    func search() {
        let event = Self.event(content: "Easy 5K RUN along the river")
        #expect(NostrFilter(search: "run").matches(event))
        #expect(NostrFilter(search: "5k river").matches(event))
        #expect(!NostrFilter(search: "5k lake").matches(event))
        #expect(NostrFilter(search: "river language:en").matches(event))
        #expect(NostrFilter(search: "  ").matches(event))
    }

    @Test("a list of filters matches when any one does")
    func filterList() {
        let event = Self.event(kind: .workoutRecord)
        #expect([NostrFilter(kinds: [.textNote]), NostrFilter(kinds: [.workoutRecord])].matches(event))
        #expect(![NostrFilter(kinds: [.textNote]), NostrFilter(authors: [Self.bob.publicKey])].matches(event))
        #expect(![NostrFilter]().matches(event))
    }
}
