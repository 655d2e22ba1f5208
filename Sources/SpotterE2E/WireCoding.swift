// SpotterE2E composes swift-crypto's primitives; no cryptography is written by hand here.
import Foundation
import SpotterModels

/// The wire's binary and id text, read strictly: base64url without padding (SpotterModels' `Base64URL`) and
/// lowercase UUIDs.
///
/// Strict because two implementations must agree on which inputs are the same: a value is accepted only in the
/// one form the other side writes, so `"A…"` and `"a…"` never name the same device in one client and two in another.
enum WireCoding {
    /// The bytes of canonical base64url (no padding, no `+`/`/`, no stray bits), else `nil`.
    static func bytes(_ text: String) -> Data? {
        guard let data = Base64URL.decode(text), Base64URL.encode(data) == text else { return nil }
        return data
    }

    /// A lowercase 8-4-4-4-12 UUID, else `nil`.
    static func uuid(_ text: String) -> UUID? {
        guard let uuid = UUIDText.parse(text), UUIDText.format(uuid) == text else { return nil }
        return uuid
    }

    static func decodeBytes<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Data {
        let text = try container.decode(String.self, forKey: key)
        guard let data = bytes(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not base64url")
        }
        return data
    }

    static func decodeUUID<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> UUID {
        let text = try container.decode(String.self, forKey: key)
        guard let id = uuid(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a lowercase UUID")
        }
        return id
    }
}

/// Lowercase hex, as a statement's hash is written.
enum Hex {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
