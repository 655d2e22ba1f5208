/// A key, an event id or a pointer written as NIP-19's bech32 text (`npub1…`, `nsec1…`, `note1…`,
/// `nprofile1…`, `nevent1…`, `naddr1…`): for showing, copying and pasting, never inside events or filters.
///
/// ```swift
/// let entity = try NIP19Entity(bech32: "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6")
/// guard case .publicKey(let key) = entity else { return }
/// print(key)  // 3bf0c63f…
/// print(NIP19Entity.profile(NIP19Profile(publicKey: key, relays: ["wss://relay.example"])).encode())
/// ```
///
/// <https://github.com/nostr-protocol/nips/blob/master/19.md>
public enum NIP19Entity: Sendable, Equatable {
    /// `npub`: a public key.
    case publicKey(NostrPublicKey)
    /// `nsec`: a secret key. Only for the owner's own import and export; never log or send it.
    case secretKey(NostrSecretKey)
    /// `note`: an event id.
    case note(NostrEventID)
    /// `nprofile`: a public key with relays where its events may be found.
    case profile(NIP19Profile)
    /// `nevent`: an event id with relays, and optionally its author and kind.
    case event(NIP19EventPointer)
    /// `naddr`: an addressable event's coordinate (kind, author, `d` tag) with relays.
    case address(NIP19Address)

    /// The bech32 prefix ("human-readable part") of this entity.
    public var prefix: String {
        switch self {
        case .publicKey: "npub"
        case .secretKey: "nsec"
        case .note: "note"
        case .profile: "nprofile"
        case .event: "nevent"
        case .address: "naddr"
        }
    }

    /// Reads NIP-19 text; throws on a bad checksum, mixed case, an unknown prefix or a value of the wrong
    /// length. TLV entries of types this NIP does not define are skipped, as NIP-19 asks.
    public init(bech32 text: String) throws(NIP19Error) {
        let (hrp, bytes) = try Bech32.decode(text)
        switch hrp {
        case "npub": self = .publicKey(try NostrPublicKey(bytes: Self.exactly32(bytes)).unwrapped())
        case "note": self = .note(try NostrEventID(bytes: Self.exactly32(bytes)).unwrapped())
        case "nsec":
            let secret = try Self.exactly32(bytes)
            guard let key = try? NostrSecretKey(bytes: secret) else { throw .invalidSecretKey }
            self = .secretKey(key)
        case "nprofile": self = .profile(try NIP19Profile(tlv: TLV.parse(bytes)))
        case "nevent": self = .event(try NIP19EventPointer(tlv: TLV.parse(bytes)))
        case "naddr": self = .address(try NIP19Address(tlv: TLV.parse(bytes)))
        default: throw .unknownPrefix(hrp)
        }
    }

    /// The NIP-19 text. TLV entries are written in rust-nostr's order (the special value, author, kind, then
    /// relays), so the same pointer gives the same string there and here; readers accept any order. Throws only
    /// when a relay URL or `d` tag is longer than the 255 bytes a TLV entry can hold.
    public func encode() throws(NIP19Error) -> String {
        var entries: [(UInt8, [UInt8])] = []
        switch self {
        case .publicKey(let key): return Bech32.encode(hrp: prefix, bytes: key.bytes)
        case .secretKey(let key): return Bech32.encode(hrp: prefix, bytes: key.rawBytes)
        case .note(let id): return Bech32.encode(hrp: prefix, bytes: id.bytes)
        case .profile(let profile):
            entries.append((0, profile.publicKey.bytes))
            entries += TLV.relays(profile.relays)
        case .event(let pointer):
            entries.append((0, pointer.id.bytes))
            if let author = pointer.author { entries.append((2, author.bytes)) }
            if let kind = pointer.kind { entries.append((3, TLV.kindBytes(kind))) }
            entries += TLV.relays(pointer.relays)
        case .address(let address):
            entries.append((0, Array(address.identifier.utf8)))
            entries.append((2, address.publicKey.bytes))
            entries.append((3, TLV.kindBytes(address.kind)))
            entries += TLV.relays(address.relays)
        }
        return Bech32.encode(hrp: prefix, bytes: try TLV.write(entries))
    }

    private static func exactly32(_ bytes: [UInt8]) throws(NIP19Error) -> [UInt8] {
        guard bytes.count == 32 else { throw .wrongLength(expected: 32, actual: bytes.count) }
        return bytes
    }
}

/// `nprofile`: whom to look up, and where.
///
/// <https://github.com/nostr-protocol/nips/blob/master/19.md>
public struct NIP19Profile: Sendable, Hashable {
    public var publicKey: NostrPublicKey
    /// Relay URLs where the profile's events are likely found: hints, in the order given.
    public var relays: [String]

    public init(publicKey: NostrPublicKey, relays: [String] = []) {
        self.publicKey = publicKey
        self.relays = relays
    }

    init(tlv: [(type: UInt8, value: [UInt8])]) throws(NIP19Error) {
        publicKey = try TLV.required(0, in: tlv, as: NostrPublicKey.self)
        relays = try TLV.relays(in: tlv)
    }
}

/// `nevent`: which event, where, and (optionally) by whom and of what kind.
///
/// <https://github.com/nostr-protocol/nips/blob/master/19.md>
public struct NIP19EventPointer: Sendable, Hashable {
    public var id: NostrEventID
    /// Relay URLs where the event is likely found.
    public var relays: [String]
    /// The event's author, when the pointer names one.
    public var author: NostrPublicKey?
    /// The event's kind, when the pointer names one (written as 4 bytes, big-endian).
    public var kind: NostrKind?

    public init(id: NostrEventID, relays: [String] = [], author: NostrPublicKey? = nil, kind: NostrKind? = nil) {
        self.id = id
        self.relays = relays
        self.author = author
        self.kind = kind
    }

    init(tlv: [(type: UInt8, value: [UInt8])]) throws(NIP19Error) {
        id = try TLV.required(0, in: tlv, as: NostrEventID.self)
        relays = try TLV.relays(in: tlv)
        author = try TLV.optional(2, in: tlv, as: NostrPublicKey.self)
        kind = try TLV.kind(in: tlv)
    }
}

/// `naddr`: an addressable event by its coordinate `<kind>:<pubkey>:<d>`, with relays.
///
/// <https://github.com/nostr-protocol/nips/blob/master/19.md>
public struct NIP19Address: Sendable, Hashable {
    /// The `d` tag.
    public var identifier: String
    public var publicKey: NostrPublicKey
    public var kind: NostrKind
    public var relays: [String]

    public init(identifier: String, publicKey: NostrPublicKey, kind: NostrKind, relays: [String] = []) {
        self.identifier = identifier
        self.publicKey = publicKey
        self.kind = kind
        self.relays = relays
    }

    /// `<kind>:<pubkey>:<d>`, as `a` tags and NIP-01 write it.
    public var coordinate: String { "\(kind.rawValue):\(publicKey.rawValue):\(identifier)" }

    init(tlv: [(type: UInt8, value: [UInt8])]) throws(NIP19Error) {
        guard let special = tlv.first(where: { $0.type == 0 }) else { throw .missingField("identifier") }
        guard let identifier = String(validating: special.value, as: UTF8.self) else { throw .malformedTLV }
        self.identifier = identifier
        publicKey = try TLV.required(2, in: tlv, as: NostrPublicKey.self, name: "author")
        guard let kind = try TLV.kind(in: tlv) else { throw .missingField("kind") }
        self.kind = kind
        relays = try TLV.relays(in: tlv)
    }
}

/// Why NIP-19 text could not be read (or, for `valueTooLong`, written); `description` says it in a sentence.
///
/// <https://github.com/nostr-protocol/nips/blob/master/19.md>
/// <https://github.com/bitcoin/bips/blob/master/bip-0173.mediawiki>
public enum NIP19Error: Error, Sendable, Equatable, CustomStringConvertible {
    case tooLong
    case invalidCharacter
    case mixedCase
    case missingSeparator
    case badChecksum
    case invalidPadding
    case unknownPrefix(String)
    case wrongLength(expected: Int, actual: Int)
    case invalidSecretKey
    case malformedTLV
    case missingField(String)
    case valueTooLong(Int)

    public var description: String {
        switch self {
        case .tooLong: "the text is longer than \(Bech32.maximumLength) characters"
        case .invalidCharacter: "the text has a character bech32 does not use"
        case .mixedCase: "the text mixes upper and lower case"
        case .missingSeparator: "the text has no prefix, separator and checksum"
        case .badChecksum: "the checksum does not match: a character is wrong or missing"
        case .invalidPadding: "the data does not end on a whole byte"
        case .unknownPrefix(let prefix): "\(prefix) is not a NIP-19 prefix"
        case .wrongLength(let expected, let actual): "the value is \(actual) bytes, not \(expected)"
        case .invalidSecretKey: "the value is not a valid secret key"
        case .malformedTLV: "the type-length-value entries are cut short or not text where text belongs"
        case .missingField(let name): "the \(name) is missing"
        case .valueTooLong(let count): "a relay URL or identifier of \(count) bytes does not fit in 255"
        }
    }
}

/// NIP-19's type-length-value encoding: one byte of type, one of length, then the value.
enum TLV {
    static func parse(_ bytes: [UInt8]) throws(NIP19Error) -> [(type: UInt8, value: [UInt8])] {
        var entries: [(type: UInt8, value: [UInt8])] = []
        var index = 0
        while index < bytes.count {
            guard index + 1 < bytes.count else { throw .malformedTLV }
            let length = Int(bytes[index + 1])
            guard index + 2 + length <= bytes.count else { throw .malformedTLV }
            entries.append((bytes[index], Array(bytes[(index + 2)..<(index + 2 + length)])))
            index += 2 + length
        }
        return entries
    }

    static func write(_ entries: [(UInt8, [UInt8])]) throws(NIP19Error) -> [UInt8] {
        var out: [UInt8] = []
        for (type, value) in entries {
            guard value.count <= 255 else { throw .valueTooLong(value.count) }
            out += [type, UInt8(value.count)] + value
        }
        return out
    }

    static func relays(_ relays: [String]) -> [(UInt8, [UInt8])] { relays.map { (1, Array($0.utf8)) } }

    static func kindBytes(_ kind: NostrKind) -> [UInt8] {
        let value = UInt32(truncatingIfNeeded: kind.rawValue)
        return [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func relays(in tlv: [(type: UInt8, value: [UInt8])]) throws(NIP19Error) -> [String] {
        var relays: [String] = []
        for entry in tlv where entry.type == 1 {
            guard let relay = String(validating: entry.value, as: UTF8.self) else { throw .malformedTLV }
            relays.append(relay)
        }
        return relays
    }

    static func kind(in tlv: [(type: UInt8, value: [UInt8])]) throws(NIP19Error) -> NostrKind? {
        guard let entry = tlv.first(where: { $0.type == 3 }) else { return nil }
        guard entry.value.count == 4 else { throw .wrongLength(expected: 4, actual: entry.value.count) }
        return NostrKind(Int(entry.value.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }))
    }

    static func optional<Value: NostrHex32>(
        _ type: UInt8, in tlv: [(type: UInt8, value: [UInt8])], as: Value.Type
    ) throws(NIP19Error) -> Value? {
        guard let entry = tlv.first(where: { $0.type == type }) else { return nil }
        guard entry.value.count == 32 else { throw .wrongLength(expected: 32, actual: entry.value.count) }
        return Value(bytes: entry.value)
    }

    static func required<Value: NostrHex32>(
        _ type: UInt8, in tlv: [(type: UInt8, value: [UInt8])], as: Value.Type, name: String? = nil
    ) throws(NIP19Error) -> Value {
        guard let value = try optional(type, in: tlv, as: Value.self) else {
            throw .missingField(name ?? (Value.self == NostrEventID.self ? "event id" : "public key"))
        }
        return value
    }
}

extension Optional {
    fileprivate func unwrapped() throws(NIP19Error) -> Wrapped {
        guard let self else { throw .malformedTLV }
        return self
    }
}
