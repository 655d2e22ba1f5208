import Foundation

/// Lowercase hexadecimal text for digests (token hashes, request fingerprints, CSRF tokens, signatures).
///
/// `String(format: "%02x")` per byte went through Foundation's printf machinery 32 times for every bearer
/// token checked, on every signed-in request. Reading the digest as a generic sequence instead went through
/// its iterator byte by byte and built an array before the string: about 9,000 instructions a digest, and a
/// keyed kudos hashes two (callgrind). The bytes are read in place and written straight into the string.
public enum Hex {
    public static func encode(_ bytes: some ContiguousBytes) -> String {
        bytes.withUnsafeBytes { raw in
            String(unsafeUninitializedCapacity: raw.count * 2) { text in
                var at = 0
                for byte in raw {
                    text[at] = digit(byte >> 4)
                    text[at + 1] = digit(byte & 0x0F)
                    at += 2
                }
                return at
            }
        }
    }

    /// A nibble's lowercase digit, by arithmetic rather than a lookup in a lazily made table.
    @inline(__always) private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }
}
