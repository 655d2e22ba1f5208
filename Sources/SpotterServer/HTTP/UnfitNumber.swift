import Foundation
import SpotterCore

/// Names the field whose number a body's type could not hold, which Foundation's `JSONDecoder` no longer does.
///
/// Since Swift 6, on Linux, a number that doesn't fit its field (`2.5` or `2^70` for an `Int`, `1e999` for a
/// `Double`) fails the whole decode as "The given data was not valid JSON." with no coding path
/// (swift-foundation issue 1604). The document promises a 400 or 422 naming the field, so when that error
/// comes, the numbers that could be the one (a fraction, an exponent, or 19 digits and more) are set to `0`,
/// the first `k` of them in document order, and `k` is halved in on until the decode just gets past the
/// error: the `k`-th is the culprit. A few decodes however many numbers the body holds; only failed requests
/// pay for them.
enum UnfitNumber {
    /// The problem with the number that broke decoding `type` from `body`, or `nil` if it was not a number.
    static func problem<T: Decodable>(
        decoding type: T.Type, from body: Data, with decoder: JSONDecoder
    )
        -> SpotterError?
    {
        let original = [UInt8](body)
        let suspects = numbers(in: original).filter { isSuspect(original[$0.range]) }
        /// The decode with the first `count` suspects set to `0`: `nil` while it still fails unlocated.
        func attempt(_ count: Int) -> (any Error)?? {
            var bytes = original
            // Back to front, so each replacement leaves the positions of those before it where they were.
            for number in suspects.prefix(count).reversed() {
                bytes.replaceSubrange(number.range, with: [UInt8(ascii: "0")])
            }
            do {
                _ = try decoder.decode(T.self, from: Data(bytes))
                return .some(nil)
            } catch let error as DecodingError where isUnlocated(error) {
                return nil
            } catch {
                return .some(error)
            }
        }
        guard var outcome = attempt(suspects.count) else { return nil }
        var (passing, failing) = (suspects.count, 0)
        while passing - failing > 1 {
            let middle = (passing + failing) / 2
            if let result = attempt(middle) {
                (passing, outcome) = (middle, result)
            } else {
                failing = middle
            }
        }
        let culprit = suspects[passing - 1]
        if let error = outcome as? DecodingError, SpotterError.path(of: error) == culprit.path {
            // With the number out of the way, its field says what it wanted instead (a string, say).
            return SpotterError(decoding: error)
        }
        return problem(String(decoding: original[culprit.range], as: UTF8.self), at: culprit.path)
    }

    /// The error swift-foundation throws for a number that doesn't fit, and for text that isn't JSON.
    static func isUnlocated(_ error: DecodingError) -> Bool {
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty { return true }
        return false
    }

    static func problem(_ literal: String, at field: String) -> SpotterError {
        if let value = Double(literal), value.isFinite, value != value.rounded() {
            return .malformed(detail: "\(field) must be a whole number.", field: field)
        }
        return .invalid(field, "is out of range")
    }

    /// A number that fits neither `Int` nor, always, `Double`: the only kind that decodes unlocated.
    static func isSuspect(_ literal: ArraySlice<UInt8>) -> Bool {
        literal.contains { [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains($0) }
            || literal.filter { $0 != UInt8(ascii: "-") }.count >= 19
    }

    struct Number {
        let range: Range<Int>
        /// As `SpotterError` names fields: `workout.exercises[0].sets[1].reps`.
        let path: String
    }

    /// Every number in a JSON text, with where it is. Assumes JSON; on anything else it finds what it finds.
    static func numbers(in bytes: [UInt8]) -> [Number] {
        enum Level {
            case object(key: String?)
            case array(index: Int)
        }
        var levels: [Level] = []
        var expectingKey = false
        var found: [Number] = []
        var index = 0
        func path() -> String {
            let joined = levels.map { level -> String in
                switch level {
                case .object(let key): key.map { ".\($0)" } ?? ""
                case .array(let index): "[\(index)]"
                }
            }.joined()
            return String(joined.drop(while: { $0 == "." }))
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                levels.append(.object(key: nil))
                expectingKey = true
            case UInt8(ascii: "["):
                levels.append(.array(index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = levels.popLast()
            case UInt8(ascii: ","):
                if case .array(let position) = levels.last {
                    levels[levels.count - 1] = .array(index: position + 1)
                } else {
                    expectingKey = true
                }
            case UInt8(ascii: ":"):
                expectingKey = false
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                if expectingKey, case .object = levels.last {
                    let literal = Data(bytes[start..<min(index + 1, bytes.count)])
                    levels[levels.count - 1] = .object(key: try? JSONDecoder().decode(String.self, from: literal))
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                while index + 1 < bytes.count, isNumberByte(bytes[index + 1]) { index += 1 }
                found.append(Number(range: start..<index + 1, path: path()))
            default:
                break  // whitespace, and the letters of true, false and null
            }
            index += 1
        }
        return found
    }

    static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")]
                .contains(byte)
    }
}
