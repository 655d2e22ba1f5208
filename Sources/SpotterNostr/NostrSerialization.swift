import Foundation

/// The byte form an event's id is the hash of (NIP-01). Written by hand because JSONEncoder's escaping is not
/// NIP-01's (it escapes `/` and other control characters and may reorder nothing, but not promise it).
public enum NostrSerialization {
    public enum Style: Sendable {
        /// NIP-01 exactly: `\n \" \\ \r \t \b \f` escaped, every other character verbatim.
        case nip01
        /// Also the other control characters (below 0x20) as `\u00xx`, as JSON.stringify and serde_json do.
        case json
    }

    static func bytes(
        pubkey: NostrPublicKey, createdAt: Int64, kind: NostrKind, tags: [[String]], content: String, style: Style
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + content.utf8.count + tags.count * 80)
        out.append(contentsOf: "[0,\"".utf8)
        out.append(contentsOf: pubkey.rawValue.utf8)
        out.append(contentsOf: "\",\(createdAt),\(kind.rawValue),[".utf8)
        for (index, tag) in tags.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "["))
            for (position, value) in tag.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                appendString(value, to: &out, style: style)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: "],".utf8)
        appendString(content, to: &out, style: style)
        out.append(UInt8(ascii: "]"))
        return out
    }

    static func appendString(_ text: String, to out: inout [UInt8], style: Style) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x00..<0x20 where style == .json:
                let digits = Array("0123456789abcdef".utf8)
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func hasOtherControlCharacters(tags: [[String]], content: String) -> Bool {
        func has(_ text: String) -> Bool {
            text.utf8.contains { $0 < 0x20 && ![0x0A, 0x0D, 0x09, 0x08, 0x0C].contains($0) }
        }
        return has(content) || tags.contains { $0.contains(where: has) }
    }
}
