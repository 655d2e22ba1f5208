/// Bech32 (BIP-173), the checksummed text NIP-19 writes keys and pointers in.
///
/// Written by hand: none of the Swift packages this project may use has bech32, and the algorithm is a page of
/// BIP-173. It is tested against NIP-19's examples and against strings rust-nostr wrote
/// (`Tests/SpotterNostrTests/Vectors/nip19-rust-nostr.json`).
///
/// Only bech32, never bech32m: NIP-19 says "bech32-(not-m)". The length limit is NIP-19's practice (TLV
/// strings with relays outgrow BIP-173's 90 characters), not BIP-173's.
///
/// <https://github.com/bitcoin/bips/blob/master/bip-0173.mediawiki>
enum Bech32 {
    static let maximumLength = 5000
    private static let alphabet = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)
    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = Int8(index) }
        return table
    }()

    /// The string for `hrp` (lower case) and `bytes`.
    static func encode(hrp: String, bytes: [UInt8]) -> String {
        let data = convertBits(bytes, from: 8, to: 5, pad: true) ?? []
        let checksum = checksum(hrp: Array(hrp.utf8), data: data)
        var out = Array(hrp.utf8)
        out.append(UInt8(ascii: "1"))
        for value in data + checksum { out.append(alphabet[Int(value)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The human-readable part (lower case) and the bytes of `text`.
    static func decode(_ text: String) throws(NIP19Error) -> (hrp: String, bytes: [UInt8]) {
        let utf8 = Array(text.utf8)
        guard utf8.count <= maximumLength else { throw .tooLong }
        guard utf8.allSatisfy({ (33...126).contains($0) }) else { throw .invalidCharacter }
        let hasLower = utf8.contains { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
        let hasUpper = utf8.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
        guard !(hasLower && hasUpper) else { throw .mixedCase }
        let lower = utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }
        // The separator is the last "1": the human-readable part may contain ones, the data cannot.
        guard let separator = lower.lastIndex(of: UInt8(ascii: "1")), separator > 0,
            lower.count - separator - 1 >= 6
        else { throw .missingSeparator }
        let hrp = Array(lower[..<separator])
        var data: [UInt8] = []
        for character in lower[(separator + 1)...] {
            let value = values[Int(character)]
            guard value >= 0 else { throw .invalidCharacter }
            data.append(UInt8(value))
        }
        guard polymod(expand(hrp) + data) == 1 else { throw .badChecksum }
        guard let bytes = convertBits(Array(data.dropLast(6)), from: 5, to: 8, pad: false) else {
            throw .invalidPadding
        }
        return (String(decoding: hrp, as: UTF8.self), bytes)
    }

    private static func polymod(_ values: [UInt8]) -> UInt32 {
        let generator: [UInt32] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3]
        var checksum: UInt32 = 1
        for value in values {
            let top = checksum >> 25
            checksum = (checksum & 0x1ff_ffff) << 5 ^ UInt32(value)
            for bit in 0..<5 where (top >> bit) & 1 == 1 { checksum ^= generator[bit] }
        }
        return checksum
    }

    private static func expand(_ hrp: [UInt8]) -> [UInt8] {
        hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 }
    }

    private static func checksum(hrp: [UInt8], data: [UInt8]) -> [UInt8] {
        let value = polymod(expand(hrp) + data + [0, 0, 0, 0, 0, 0]) ^ 1
        return (0..<6).map { UInt8((value >> (5 * (5 - UInt32($0)))) & 31) }
    }

    /// Regroups bits (BIP-173's `convertbits`); `nil` when unpadded input leaves more than 4 bits or non-zero
    /// ones, which BIP-173 says a decoder must refuse.
    private static func convertBits(_ input: [UInt8], from: Int, to: Int, pad: Bool) -> [UInt8]? {
        var accumulator = 0
        var bits = 0
        var out: [UInt8] = []
        let mask = (1 << to) - 1
        for value in input {
            accumulator = (accumulator << from) | Int(value)
            bits += from
            while bits >= to {
                bits -= to
                out.append(UInt8((accumulator >> bits) & mask))
            }
            accumulator &= (1 << bits) - 1
        }
        if pad {
            if bits > 0 { out.append(UInt8((accumulator << (to - bits)) & mask)) }
        } else if bits >= from || (accumulator << (to - bits)) & mask != 0 {
            return nil
        }
        return out
    }
}
