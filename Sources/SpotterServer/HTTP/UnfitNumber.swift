import Foundation
import SpotterCore

/// Names the field whose number a body's type could not hold, which Foundation's `JSONDecoder` no longer does.
///
/// Since Swift 6, on Linux, a number that doesn't fit its field (`2.5` or `2^70` for an `Int`, `1e999` for a
/// `Double`) fails the whole decode as "The given data was not valid JSON." with no coding path
/// (swift-foundation issue 1604). The document promises a 400 or 422 naming the field, so when that error
/// comes, each number that could be the one (a fraction, an exponent, or 19 digits and more) is set to `0` in
/// turn until the decode gets past it; the last one set is the culprit. Only failed requests pay for this.
enum UnfitNumber {
    /// How many numbers are tried before giving up and calling the body unreadable.
    static let maxAttempts = 64

    /// The problem with the number that broke decoding `type` from `body`, or `nil` if it was not a number.
    static func problem<T: Decodable>(
        decoding type: T.Type, from body: Data, with decoder: JSONDecoder
    )
        -> SpotterError?
    {
        var bytes = [UInt8](body)
        let suspects = numbers(in: bytes).filter { isSuspect(bytes[$0.range]) }
        // Back to front, so setting one to `0` leaves the positions of those before it where they were.
        for number in suspects.reversed().prefix(maxAttempts) {
            let literal = String(decoding: bytes[number.range], as: UTF8.self)
            bytes.replaceSubrange(number.range, with: [UInt8(ascii: "0")])
            do {
                _ = try decoder.decode(T.self, from: Data(bytes))
            } catch let error as DecodingError where isUnlocated(error) {
                continue
            } catch let error as DecodingError where SpotterError.path(of: error) == number.path {
                // With the number out of the way, its field says what it wanted instead (a string, say).
                return SpotterError(decoding: error)
            } catch {
                return problem(literal, at: number.path)
            }
            return problem(literal, at: number.path)
        }
        return nil
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
