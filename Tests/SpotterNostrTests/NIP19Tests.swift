import Foundation
import Testing

@testable import SpotterNostr

@Suite("NIP-19 bech32 entities")
struct NIP19Tests {
    // MARK: NIP-19's own examples (nostr-protocol/nips 19.md)

    @Test("NIP-19's npub, nsec and nprofile examples decode to the values it gives, and back")
    func nipExamples() throws {
        let npub = "npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg"
        let publicKey = NostrPublicKey(rawValue: "7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e")!
        #expect(try NIP19Entity(bech32: npub) == .publicKey(publicKey))
        #expect(try NIP19Entity.publicKey(publicKey).encode() == npub)

        let nsec = "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5"
        let secretKey = try NostrSecretKey(hex: "67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa")
        #expect(try NIP19Entity(bech32: nsec) == .secretKey(secretKey))
        #expect(try NIP19Entity.secretKey(secretKey).encode() == nsec)

        let other = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6"
        let otherKey = NostrPublicKey(rawValue: "3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d")!
        #expect(try NIP19Entity(bech32: other) == .publicKey(otherKey))

        let nprofile =
            "nprofile1qqsrhuxx8l9ex335q7he0f09aej04zpazpl0ne2cgukyawd24mayt8gpp4mhxue69uhhytnc9e3k7mgpz4mhxue69uhkg6nzv9ejuumpv34kytnrdaksjlyr9p"
        let profile = NIP19Profile(publicKey: otherKey, relays: ["wss://r.x.com", "wss://djbas.sadkb.com"])
        #expect(try NIP19Entity(bech32: nprofile) == .profile(profile))
        #expect(try NIP19Entity.profile(profile).encode() == nprofile)
    }

    // MARK: rust-nostr's strings

    struct RustVectors: Decodable {
        struct Plain: Decodable {
            var hex: String
            var bech32: String
        }
        struct Profile: Decodable {
            var bech32: String
            var pubkey: String
            var relays: [String]
        }
        struct Event: Decodable {
            var bech32: String
            var id: String
            var author: String?
            var kind: Int?
            var relays: [String]
        }
        struct Address: Decodable {
            var bech32: String
            var identifier: String
            var pubkey: String
            var kind: Int
            var relays: [String]
        }
        var npub: [Plain]
        var nsec: [Plain]
        var note: [Plain]
        var nprofile: [Profile]
        var nevent: [Event]
        var naddr: [Address]
    }

    static let rust = try? TestVectors.decode(RustVectors.self, from: "nip19-rust-nostr.json")

    /// Each rust-nostr string with the entity rust-nostr decodes from it.
    static let rustEntities: [(String, NIP19Entity)] = {
        guard let rust else { return [] }
        var pairs: [(String, NIP19Entity)] = []
        pairs += rust.npub.map { ($0.bech32, .publicKey(NostrPublicKey(rawValue: $0.hex)!)) }
        pairs += rust.nsec.map { ($0.bech32, .secretKey(try! NostrSecretKey(hex: $0.hex))) }
        pairs += rust.note.map { ($0.bech32, .note(NostrEventID(rawValue: $0.hex)!)) }
        pairs += rust.nprofile.map {
            ($0.bech32, .profile(NIP19Profile(publicKey: NostrPublicKey(rawValue: $0.pubkey)!, relays: $0.relays)))
        }
        pairs += rust.nevent.map {
            let pointer = NIP19EventPointer(
                id: NostrEventID(rawValue: $0.id)!, relays: $0.relays,
                author: $0.author.flatMap(NostrPublicKey.init(rawValue:)), kind: $0.kind.map { NostrKind($0) })
            return ($0.bech32, .event(pointer))
        }
        pairs += rust.naddr.map {
            let address = NIP19Address(
                identifier: $0.identifier, publicKey: NostrPublicKey(rawValue: $0.pubkey)!, kind: NostrKind($0.kind),
                relays: $0.relays)
            return ($0.bech32, .address(address))
        }
        return pairs
    }()

    @Test("the rust-nostr vectors cover every prefix, relays, authors, kinds and an empty and unicode d tag")
    func rustVectorsCover() throws {
        let rust = try #require(Self.rust)
        #expect(Set(Self.rustEntities.map { $0.1.prefix }) == ["npub", "nsec", "note", "nprofile", "nevent", "naddr"])
        #expect(rust.nevent.contains { $0.author == nil && $0.kind == nil && $0.relays.isEmpty })
        #expect(rust.nevent.contains { $0.author != nil && $0.kind != nil && $0.relays.count > 1 })
        #expect(rust.naddr.contains { $0.identifier.isEmpty })
        #expect(rust.naddr.contains { $0.identifier.unicodeScalars.contains { !$0.isASCII } })
    }

    @Test("each rust-nostr string decodes to what rust-nostr decodes, and encodes back to the same string")
    func rustVectorsBothWays() throws {
        #expect(Self.rustEntities.count >= 19)
        for (text, entity) in Self.rustEntities {
            #expect(try NIP19Entity(bech32: text) == entity, "\(text)")
            #expect(try entity.encode() == text)
            // Upper case is the same string to bech32.
            #expect(try NIP19Entity(bech32: text.uppercased()) == entity)
        }
    }

    // MARK: Refusals

    static let npub = "npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg"

    @Test("a changed character, mixed case, a foreign character or no separator is refused with its reason")
    func refusesDamage() {
        var changed = Array(Self.npub)
        changed[10] = changed[10] == "q" ? "p" : "q"
        #expect(throws: NIP19Error.badChecksum) { try NIP19Entity(bech32: String(changed)) }
        #expect(throws: NIP19Error.badChecksum) { try NIP19Entity(bech32: String(Self.npub.dropLast())) }
        #expect(throws: NIP19Error.mixedCase) { try NIP19Entity(bech32: "Npub" + Self.npub.dropFirst(4)) }
        // "b", "i", "o" and "1" are not in bech32's alphabet (after the separator).
        #expect(throws: NIP19Error.invalidCharacter) { try NIP19Entity(bech32: "npub1b" + Self.npub.dropFirst(6)) }
        #expect(throws: NIP19Error.invalidCharacter) { try NIP19Entity(bech32: "npub1 " + Self.npub.dropFirst(6)) }
        #expect(throws: NIP19Error.invalidCharacter) { try NIP19Entity(bech32: Self.npub + "é") }
        #expect(throws: NIP19Error.missingSeparator) { try NIP19Entity(bech32: "npubqqqqqq") }
        #expect(throws: NIP19Error.missingSeparator) { try NIP19Entity(bech32: "1qqqqqqqq") }
        #expect(throws: NIP19Error.tooLong) { try NIP19Entity(bech32: "npub1" + String(repeating: "q", count: 5000)) }
    }

    @Test("an unknown prefix is refused, even with a good checksum")
    func refusesUnknownPrefix() {
        let nrelay = Bech32.encode(hrp: "nrelay", bytes: [0, 3] + Array("wss".utf8))
        #expect(throws: NIP19Error.unknownPrefix("nrelay")) { try NIP19Entity(bech32: nrelay) }
        let bitcoin = Bech32.encode(hrp: "bc", bytes: [UInt8](repeating: 7, count: 20))
        #expect(throws: NIP19Error.unknownPrefix("bc")) { try NIP19Entity(bech32: bitcoin) }
    }

    @Test("keys and ids of other than 32 bytes, and an invalid secret, are refused")
    func refusesWrongLengths() {
        for prefix in ["npub", "note", "nsec"] {
            for count in [0, 31, 33] {
                let text = Bech32.encode(hrp: prefix, bytes: [UInt8](repeating: 1, count: count))
                #expect(throws: NIP19Error.wrongLength(expected: 32, actual: count)) { try NIP19Entity(bech32: text) }
            }
        }
        let zero = Bech32.encode(hrp: "nsec", bytes: [UInt8](repeating: 0, count: 32))
        #expect(throws: NIP19Error.invalidSecretKey) { try NIP19Entity(bech32: zero) }
    }

    @Test("TLV entries cut short, missing, or of the wrong length are refused")
    func refusesBadTLV() {
        let key = [UInt8](repeating: 0x11, count: 32)
        let cases: [(String, [UInt8], NIP19Error)] = [
            ("nprofile", [0, 32] + key.prefix(31), .malformedTLV),
            ("nprofile", [0], .malformedTLV),
            ("nprofile", [1, 3] + Array("wss".utf8), .missingField("public key")),
            ("nprofile", [0, 31] + key.prefix(31), .wrongLength(expected: 32, actual: 31)),
            ("nevent", [2, 32] + key, .missingField("event id")),
            ("nevent", [0, 32] + key + [3, 2, 0, 1], .wrongLength(expected: 4, actual: 2)),
            ("naddr", [2, 32] + key + [3, 4, 0, 0, 0x82, 0x79], .missingField("identifier")),
            ("naddr", [0, 0, 3, 4, 0, 0, 0x82, 0x79], .missingField("author")),
            ("naddr", [0, 0, 2, 32] + key, .missingField("kind")),
            ("naddr", [0, 2, 0xC3, 0x28, 2, 32] + key + [3, 4, 0, 0, 0x82, 0x79], .malformedTLV),
        ]
        for (prefix, tlv, error) in cases {
            #expect(throws: error) { try NIP19Entity(bech32: Bech32.encode(hrp: prefix, bytes: tlv)) }
        }
    }

    @Test("TLV entries are read in any order and unknown types are skipped, as NIP-19 asks")
    func readsAnyOrder() throws {
        let id = [UInt8](repeating: 0xAB, count: 32)
        let author = [UInt8](repeating: 0xCD, count: 32)
        // nostr-tools' order (relays before author and kind), with a type 9 nobody defined.
        let tlv: [UInt8] =
            [1, 7] + Array("wss://a".utf8) + [9, 2, 0xFF, 0xFF] + [0, 32] + id + [2, 32] + author + [3, 4, 0, 0, 5, 21]
        let entity = try NIP19Entity(bech32: Bech32.encode(hrp: "nevent", bytes: tlv))
        let expected = NIP19EventPointer(
            id: NostrEventID(bytes: id)!, relays: ["wss://a"], author: NostrPublicKey(bytes: author), kind: 1301)
        #expect(entity == .event(expected))
    }

    @Test("a relay URL or d tag longer than a TLV entry holds is refused when encoding")
    func refusesOverlongValues() {
        let key = NostrPublicKey(rawValue: String(repeating: "ab", count: 32))!
        let long = "wss://" + String(repeating: "a", count: 250) + ".example"
        #expect(throws: NIP19Error.valueTooLong(long.utf8.count)) {
            try NIP19Entity.profile(NIP19Profile(publicKey: key, relays: [long])).encode()
        }
        let address = NIP19Address(identifier: String(repeating: "é", count: 128), publicKey: key, kind: 33401)
        #expect(throws: NIP19Error.valueTooLong(256)) { try NIP19Entity.address(address).encode() }
    }

    @Test("an naddr names the coordinate a tags use")
    func coordinate() {
        let key = NostrPublicKey(rawValue: String(repeating: "ab", count: 32))!
        let address = NIP19Address(identifier: "squat", publicKey: key, kind: .exerciseTemplate)
        #expect(address.coordinate == "33401:\(key.rawValue):squat")
    }
}
