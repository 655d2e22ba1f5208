import Foundation
import SpotterNostr
import Testing

/// Events rust-nostr signed (`scripts/nostr-vectors.py`), whose content and tags hold every character NIP-01
/// escapes, unicode of every awkward kind, `/`, `<`, empty strings and other control characters.
@Suite("Event ids against rust-nostr")
struct RustNostrEventTests {
    struct Vectors: Decodable {
        struct Signed: Decodable, CustomTestStringConvertible {
            var name: String
            var secretKey: String
            var json: String
            var testDescription: String { name }
            enum CodingKeys: String, CodingKey {
                case name, json
                case secretKey = "secret_key"
            }
        }
        struct ControlCharacters: Decodable {
            var content: String
            var rustNostrID: String
            var nip01LiteralID: String
            var rustNostrAcceptsNIP01LiteralID: Bool
            var publicKey: String
            enum CodingKeys: String, CodingKey {
                case content
                case rustNostrID = "rust_nostr_id"
                case nip01LiteralID = "nip01_literal_id"
                case rustNostrAcceptsNIP01LiteralID = "rust_nostr_accepts_nip01_literal_id"
                case publicKey = "public_key"
            }
        }
        var createdAt: Int64
        var events: [Signed]
        var controlCharacters: ControlCharacters
        enum CodingKeys: String, CodingKey {
            case events
            case createdAt = "created_at"
            case controlCharacters = "control_characters"
        }
    }

    static let vectors = try? TestVectors.decode(Vectors.self, from: "nostr-events-rust-nostr.json")
    static var events: [Vectors.Signed] { vectors?.events ?? [] }

    @Test("the vectors hold every character NIP-01 escapes, unicode beyond the BMP, and empty strings")
    func vectorsCover() throws {
        let events = try Self.events.map { try NostrJSON.decoder.decode(NostrEvent.self, from: Data($0.json.utf8)) }
        let text = events.map { $0.content + $0.tags.flatMap { $0 }.joined() }.joined()
        for character in ["\n", "\"", "\\", "\r", "\t", "\u{08}", "\u{0C}", "/", "<", "\u{01}", "\u{2028}"] {
            #expect(text.contains(character), "missing \(character.debugDescription)")
        }
        #expect(text.unicodeScalars.contains { $0.value > 0xFFFF })
        #expect(text.unicodeScalars.contains { $0.properties.generalCategory == .nonspacingMark })
        #expect(text.unicodeScalars.contains { (0x0590...0x06FF).contains($0.value) })  // Hebrew, Arabic
        #expect(events.contains { $0.content.isEmpty })
        #expect(events.contains { $0.tags.contains { $0.contains("") } })
        #expect(Set(events.map(\.kind)).isSuperset(of: [0, 1, 7, 1301, 33401]))
    }

    @Test("each rust-nostr event decodes with a valid id and signature", arguments: events)
    func decodesAndVerifies(_ signed: Vectors.Signed) throws {
        let event = try NostrJSON.decoder.decode(NostrEvent.self, from: Data(signed.json.utf8))
        #expect(event.hasValidID)
        #expect(event.hasValidSignature)
        #expect(event.isValid)
    }

    @Test(
        "recomputing the id from the fields gives rust-nostr's, and signing them again gives the same id",
        arguments: events)
    func sameID(_ signed: Vectors.Signed) throws {
        // Given rust-nostr's event and the test key that signed it
        let event = try NostrJSON.decoder.decode(NostrEvent.self, from: Data(signed.json.utf8))
        let key = try NostrSecretKey(hex: signed.secretKey)
        #expect(key.publicKey == event.pubkey)
        // When SpotterNostr computes the id and signs the same fields
        let ours = try NostrEvent.sign(
            kind: event.kind, tags: event.tags, content: event.content, createdAt: event.createdAt, with: key)
        // Then the ids are rust-nostr's
        let text = event.content + event.tags.flatMap { $0 }.joined()
        if !text.unicodeScalars.contains(where: { $0.value < 0x20 && ![8, 9, 10, 12, 13].contains($0.value) }) {
            // NIP-01's literal serialisation is the same bytes when no other control character is present.
            #expect(
                NostrEvent.computeID(
                    pubkey: event.pubkey, createdAt: event.createdAt, kind: event.kind, tags: event.tags,
                    content: event.content) == event.id)
        }
        #expect(ours.id == event.id)
        #expect(ours.isValid)
        // And our JSON of the event reads back as the same event
        #expect(try NostrJSON.decoder.decode(NostrEvent.self, from: Data(event.json.utf8)) == event)
    }

    @Test("ids with other control characters: rust-nostr escapes them as \\u00XX; both forms are accepted here")
    func controlCharacters() throws {
        let note = try #require(Self.vectors?.controlCharacters)
        let publicKey = try #require(NostrPublicKey(rawValue: note.publicKey))
        let createdAt = try #require(Self.vectors?.createdAt)
        // rust-nostr refuses the id NIP-01's literal reading gives; SpotterNostr computes both.
        #expect(!note.rustNostrAcceptsNIP01LiteralID)
        #expect(note.nip01LiteralID != note.rustNostrID)
        let literal = NostrEvent.computeID(
            pubkey: publicKey, createdAt: createdAt, kind: 1, tags: [], content: note.content)
        let json = NostrEvent.computeID(
            pubkey: publicKey, createdAt: createdAt, kind: 1, tags: [], content: note.content, style: .json)
        #expect(literal.rawValue == note.nip01LiteralID)
        #expect(json.rawValue == note.rustNostrID)
        // hasValidID accepts an event carrying either id (the signature is another matter, checked elsewhere).
        for id in [literal, json] {
            let event = NostrEvent(
                id: id, pubkey: publicKey, createdAt: createdAt, kind: 1, tags: [], content: note.content,
                sig: String(repeating: "0", count: 128))
            #expect(event.hasValidID)
        }
        let other = NostrEvent(
            id: literal, pubkey: publicKey, createdAt: createdAt + 1, kind: 1, tags: [], content: note.content,
            sig: String(repeating: "0", count: 128))
        #expect(!other.hasValidID)
    }

    @Test("a changed field, id or signature no longer verifies")
    func tampering() throws {
        let signed = try #require(Self.events.first { $0.name == "note-nip01-escapes" })
        let event = try NostrJSON.decoder.decode(NostrEvent.self, from: Data(signed.json.utf8))
        var content = event
        content.content += " "
        #expect(!content.hasValidID)
        var tags = event
        tags.tags[0][1] = "Running"
        #expect(!tags.hasValidID)
        var time = event
        time.createdAt += 1
        #expect(!time.isValid)
        var signature = event
        signature.sig = String(signature.sig.dropLast()) + (signature.sig.hasSuffix("0") ? "1" : "0")
        #expect(signature.hasValidID && !signature.hasValidSignature)
        var author = event
        author.pubkey = try NostrSecretKey.generate().publicKey
        #expect(!author.isValid)
    }

    @Test(
        "events SpotterNostr signs with the same fields verify in rust-nostr",
        .enabled(if: TestVectors.python != nil, "needs .venv with nostr-sdk (scripts/test makes it)"))
    func ourEventsVerifyInRustNostr() throws {
        // Given our events over the vectors' fields, signed with fresh keys and with the vectors' keys
        let theirs = try Self.events.map { try NostrJSON.decoder.decode(NostrEvent.self, from: Data($0.json.utf8)) }
        let fresh = try NostrSecretKey.generate()
        var ours: [NostrEvent] = []
        for (event, signed) in zip(theirs, Self.events) {
            for key in [try NostrSecretKey(hex: signed.secretKey), fresh] {
                ours.append(try NostrEvent.sign(kind: event.kind, tags: event.tags, content: event.content, with: key))
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-nostr-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try NostrJSON.encoder.encode(ours).write(to: file)
        // When rust-nostr checks them
        guard let python = TestVectors.python else {
            Issue.record("no .venv/bin/python: scripts/test makes it")
            return
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [
            TestVectors.repository.appendingPathComponent("scripts/nostr-vectors.py").path, "verify", file.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // Then every one verifies
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("\(ours.count) of \(ours.count) events verify"), "\(text)")
    }
}
