import Crypto
import Foundation

/// A Nostr event (NIP-01): signed by its author's key, identified by the SHA-256 of its serialisation.
///
/// ```swift
/// let key = try NostrSecretKey.generate()
/// let note = try NostrEvent.sign(kind: .textNote, tags: [["t", "running"]], content: "5k done", with: key)
/// assert(note.isValid)
/// ```
///
/// <https://github.com/nostr-protocol/nips/blob/master/01.md>
public struct NostrEvent: Codable, Sendable, Hashable {
    public var id: NostrEventID
    public var pubkey: NostrPublicKey
    /// Seconds since 1970, as the author's clock said.
    public var createdAt: Int64
    public var kind: NostrKind
    public var tags: [[String]]
    public var content: String
    /// The BIP-340 signature of `id`, 64 bytes as 128 hex digits.
    public var sig: String

    public init(
        id: NostrEventID, pubkey: NostrPublicKey, createdAt: Int64, kind: NostrKind, tags: [[String]],
        content: String, sig: String
    ) {
        self.id = id
        self.pubkey = pubkey
        self.createdAt = createdAt
        self.kind = kind
        self.tags = tags
        self.content = content
        self.sig = sig
    }

    enum CodingKeys: String, CodingKey {
        case id, pubkey
        case createdAt = "created_at"
        case kind, tags, content, sig
    }

    /// Makes and signs an event with `key`; the id is computed as NIP-01 says.
    ///
    /// Text holding control characters NIP-01 does not list (U+0001 and the like) is hashed with them escaped
    /// as `\u00XX`, as JSON.stringify and serde_json write them: rust-nostr and JavaScript clients refuse the id
    /// NIP-01's literal reading gives (`scripts/nostr-vectors.py` records this), and `hasValidID` accepts both.
    /// For all other text the two are the same bytes.
    public static func sign(
        kind: NostrKind, tags: [[String]] = [], content: String, createdAt: Int64? = nil,
        with key: NostrSecretKey
    ) throws -> NostrEvent {
        let pubkey = key.publicKey
        let created = createdAt ?? Int64(Date().timeIntervalSince1970)
        let id = computeID(pubkey: pubkey, createdAt: created, kind: kind, tags: tags, content: content, style: .json)
        let signature = try key.sign(id.bytes)
        return NostrEvent(
            id: id, pubkey: pubkey, createdAt: created, kind: kind, tags: tags, content: content,
            sig: Hex.encode(signature))
    }

    /// NIP-01's id: SHA-256 of `[0,<pubkey>,<created_at>,<kind>,<tags>,<content>]` written with no spaces and
    /// only the escapes NIP-01 lists.
    public static func computeID(
        pubkey: NostrPublicKey, createdAt: Int64, kind: NostrKind, tags: [[String]], content: String,
        style: NostrSerialization.Style = .nip01
    ) -> NostrEventID {
        let bytes = NostrSerialization.bytes(
            pubkey: pubkey, createdAt: createdAt, kind: kind, tags: tags, content: content, style: style)
        return NostrEventID(unchecked: Hex.encode(SHA256.hash(data: bytes)))
    }

    /// Whether `id` is the hash of this event's fields. Besides NIP-01's serialisation, accepts the one
    /// JavaScript's `JSON.stringify` and serde_json write, which escape the other control characters as
    /// `\u00XX`: most clients compute ids that way, and for text without such characters both are the same.
    public var hasValidID: Bool {
        if Self.computeID(pubkey: pubkey, createdAt: createdAt, kind: kind, tags: tags, content: content) == id {
            return true
        }
        guard NostrSerialization.hasOtherControlCharacters(tags: tags, content: content) else { return false }
        return Self.computeID(
            pubkey: pubkey, createdAt: createdAt, kind: kind, tags: tags, content: content, style: .json) == id
    }

    /// Whether `sig` is `pubkey`'s BIP-340 signature of `id`.
    public var hasValidSignature: Bool {
        guard let signature = Hex.decode(sig), signature.count == 64 else { return false }
        return Secp256k1.verify(signature: signature, message: id.bytes, publicKey: pubkey.bytes)
    }

    /// Whether the id and the signature both check out: what a relay requires before storing an event.
    public var isValid: Bool { hasValidID && hasValidSignature }

    /// The values of every tag named `name`, in order (the second element of each).
    public func tagValues(_ name: String) -> [String] {
        tags.compactMap { $0.count > 1 && $0[0] == name ? $0[1] : nil }
    }

    /// The first value of the tag named `name`.
    public func firstTagValue(_ name: String) -> String? {
        tags.first { $0.count > 1 && $0[0] == name }?[1]
    }

    /// The `d` tag of an addressable event (`""` when absent, as NIP-01 says).
    public var dTag: String { firstTagValue("d") ?? "" }

    /// `<kind>:<pubkey>:<d>`, the address NIP-01 gives an addressable event (and `<kind>:<pubkey>:` a
    /// replaceable one); `nil` for other kinds.
    public var address: String? {
        if kind.isAddressable { return "\(kind.rawValue):\(pubkey.rawValue):\(dTag)" }
        if kind.isReplaceable { return "\(kind.rawValue):\(pubkey.rawValue):" }
        return nil
    }

    /// The event as compact JSON, as relays and clients exchange it.
    public var json: String {
        String(decoding: (try? NostrJSON.encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

/// The JSON coders Nostr's messages use: compact, no escaped slashes.
public enum NostrJSON {
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()
    public static let decoder = JSONDecoder()
}
