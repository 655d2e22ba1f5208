// SpotterE2E composes swift-crypto's primitives (SHA-256); no cryptography is written by hand here.
import Crypto
import Foundation

/// The code a new device shows while it waits to be approved, and that the person types on a device that is
/// already theirs (docs/encryption.md, "Approving a new device").
///
/// The server carries the new device's public keys from one device to the other, so it could put keys of its
/// own in their place. The new device works its code out from its own keys; the approving device works it out
/// from the keys the server gave it and signs the addition only when the two agree: a server that changed a key
/// would have to find other keys with the same 60 bits of SHA-256, about 2⁶⁰ tries, while the request lives.
///
/// SHA-256 over `"spotter-e2e-v1 device-code\n" ‖ user id ‖ "\n" ‖ device id ‖ "\n" ‖ HPKE public key ‖ signing
/// public key` (65-byte points); the digest's first 60 bits, in twelve 5-bit groups from the top, each a symbol of
/// Crockford's base32 (`0-9`, then `A-Z` without `I L O U`), shown in three groups of four: `K7QF-3MZX-9HDT`.
///
/// ```swift
/// let code = DeviceCode(userID: me, device: laptop)          // shown on the laptop: "K7QF-3MZX-9HDT"
/// guard DeviceCode(typed: "k7qf 3mzx 9hdt") == code else { … }  // typed on the phone, however spaced
/// ```
public struct DeviceCode: Sendable, Hashable, CustomStringConvertible {
    /// Crockford's base32: no `I`, `L`, `O` or `U`, which read like `1`, `1`, `0` and `V`.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    /// How many symbols a code has (5 bits each: 60 bits).
    public static let length = 12

    /// The twelve symbols, without separators.
    public let symbols: String

    /// The code of `device`'s registration as a device of `userID`.
    public init(userID: UUID, device: DeviceRegistration) {
        self.init(
            userID: userID, deviceID: device.id, hpkePublic: device.hpkePublic.x963Representation,
            signingPublic: device.signingPublic.x963Representation)
    }

    /// The code of a device's 65-byte public keys.
    public init(userID: UUID, deviceID: UUID, hpkePublic: Data, signingPublic: Data) {
        var hash = SHA256()
        hash.update(data: Context.deviceCodePrefix(userID: userID, deviceID: deviceID))
        hash.update(data: hpkePublic)
        hash.update(data: signingPublic)
        let top = Array(hash.finalize()).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } >> 4
        symbols = String(
            (0..<Self.length).map { Self.alphabet[Int((top >> UInt64(55 - 5 * $0)) & 0x1F)] })
    }

    /// A code as a person typed it: any case, spaces and dashes anywhere, `O` for `0` and `I` or `L` for `1`
    /// (Crockford's reading). `nil` when it is not twelve symbols of the alphabet.
    public init?(typed text: String) {
        var symbols = ""
        for character in text.uppercased() where !character.isWhitespace && character != "-" {
            let read: Character =
                switch character {
                case "O": "0"
                case "I", "L": "1"
                default: character
                }
            guard Self.alphabet.contains(read) else { return nil }
            symbols.append(read)
        }
        guard symbols.count == Self.length else { return nil }
        self.symbols = symbols
    }

    /// Three groups of four, joined by dashes: `K7QF-3MZX-9HDT`, one word in a terminal and easy to read aloud.
    public var description: String {
        let characters = Array(symbols)
        return stride(from: 0, to: characters.count, by: 4).map { String(characters[$0..<$0 + 4]) }
            .joined(separator: "-")
    }
}
