import Foundation

/// Reads a time in every form RFC 3339 §5.6 allows: `T` or `t`, `Z` or `z`, any fraction of a second, any
/// offset from `-23:59` to `+23:59`, and a leap second (`:60`, read as the second after).
///
/// The document's times are `format: date-time`, which is RFC 3339; Foundation's `.iso8601` strategy reads
/// only some of it (no lower case, no fractions), so clients and schemathesis that wrote a valid time were
/// refused. Every time field of the wire reads through here (`WireJSON.decoder()`); times are still written
/// as `2026-11-22T19:39:13Z`.
///
/// ```swift
/// RFC3339.date(from: "2026-11-22t20:39:13.5+01:00")  // 2026-11-22 19:39:13.5 UTC
/// RFC3339.date(from: "2026-11-22 19:39:13Z")         // nil: the separator is T
/// ```
public enum RFC3339 {
    /// The instant `text` names, or `nil` if it is not an RFC 3339 `date-time`.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ start: Int, _ length: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<start + length] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(_ index: Int, is characters: String) -> Bool {
            index < bytes.count && characters.utf8.contains(bytes[index])
        }
        guard let year = number(0, 4), byte(4, is: "-"), let month = number(5, 2), byte(7, is: "-"),
            let day = number(8, 2), byte(10, is: "Tt"), let hour = number(11, 2), byte(13, is: ":"),
            let minute = number(14, 2), byte(16, is: ":"), let second = number(17, 2),
            (1...12).contains(month), (1...daysIn(month, of: year)).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second)
        else { return nil }

        var index = 19
        var fraction = 0.0
        if byte(index, is: ".") {
            let start = index + 1
            index = start
            while byte(index, is: "0123456789") { index += 1 }
            guard index > start, let value = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))
            else { return nil }
            fraction = value
        }

        let offset: Int
        if byte(index, is: "Zz"), index + 1 == bytes.count {
            offset = 0
        } else if byte(index, is: "+-"), index + 6 == bytes.count, let hours = number(index + 1, 2),
            byte(index + 3, is: ":"), let minutes = number(index + 4, 2), (0...23).contains(hours),
            (0...59).contains(minutes)
        {
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }

        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds - offset) + fraction)
    }

    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
