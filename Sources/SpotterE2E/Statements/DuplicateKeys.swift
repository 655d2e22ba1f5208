// SpotterE2E composes swift-crypto's primitives; no cryptography is written by hand here (this file reads JSON).
import Foundation

/// Finds a key that appears twice in one JSON object of a statement body, or is written with escapes.
///
/// JSON parsers disagree on duplicates: Foundation's `JSONDecoder` keeps the first, JavaScript's `JSON.parse` the
/// last. A signed body `{"kind":"add", "role":"member", "role":"admin", …}` would then make Bob a member here and
/// an admin in the browser, from the same verified bytes. No honest encoder writes a duplicate, so a body with one
/// is refused outright.
enum DuplicateKeys {
    /// The first key repeated within one object of `json` (already known to be valid JSON), or written with
    /// escapes, or nil.
    static func first(in json: Data) -> String? {
        let bytes = [UInt8](json)
        // One entry per open container: the keys seen so far for an object, nil for an array.
        var containers: [Set<String>?] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"): containers.append([])
            case UInt8(ascii: "["): containers.append(nil)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = containers.popLast()
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                var next = index + 1
                while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                // A string followed by `:` inside an object is a key. One written with escapes is refused as
                // the browser refuses it (an escape could hide a repeat from a reader that compares bytes).
                if next < bytes.count, bytes[next] == UInt8(ascii: ":"), containers.last != nil,
                    let key = try? JSONDecoder().decode(String.self, from: Data(bytes[start...index]))
                {
                    if bytes[start...index].contains(UInt8(ascii: "\\")) { return key }
                    if containers[containers.count - 1]!.insert(key).inserted == false { return key }
                }
            default: break
            }
            index += 1
        }
        return nil
    }
}
