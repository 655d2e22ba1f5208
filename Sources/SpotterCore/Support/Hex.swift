/// Lowercase hexadecimal text for digests (token hashes, request fingerprints, CSRF tokens).
///
/// `String(format: "%02x")` per byte went through Foundation's printf machinery 32 times for every bearer
/// token checked, on every signed-in request.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
