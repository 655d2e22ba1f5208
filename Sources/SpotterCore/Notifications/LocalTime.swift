import Foundation

/// Times of day in a person's own time zone: quiet hours and digest mornings are theirs, not the server's.
///
/// Built on `Calendar`, so daylight-saving days (23 or 25 hours) land on the right wall-clock time.
public struct LocalTime: Sendable {
    public let timeZone: TimeZone
    private let calendar: Calendar

    /// `identifier` is an IANA name; an unknown one falls back to UTC (profiles validate theirs).
    public init(_ identifier: String) {
        timeZone = TimeZone(identifier: identifier) ?? TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// `HH:mm` on a 24-hour clock, as minutes after midnight; `nil` when it is not one.
    public static func minutes(of clock: String) -> Int? {
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]),
            let minute = Int(parts[1]),
            (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    /// Minutes after local midnight at `date`.
    public func minuteOfDay(_ date: Date) -> Int {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    /// Whether `date` falls in the window from `start` up to (not including) `end`, minutes after local
    /// midnight; a window whose start is after its end spans midnight. An empty window (start == end) holds
    /// nothing.
    public func isWithin(_ date: Date, start: Int, end: Int) -> Bool {
        let now = minuteOfDay(date)
        return start <= end ? (now >= start && now < end) : (now >= start || now < end)
    }

    /// The first moment after `date` whose local time is `minute` minutes after midnight.
    public func next(minuteOfDay minute: Int, after date: Date) -> Date {
        let wanted = DateComponents(hour: minute / 60, minute: minute % 60, second: 0)
        return calendar.nextDate(after: date, matching: wanted, matchingPolicy: .nextTime) ?? date
    }

    /// The first Monday at `minute` after `date`, local time.
    public func nextMonday(minuteOfDay minute: Int, after date: Date) -> Date {
        let wanted = DateComponents(hour: minute / 60, minute: minute % 60, second: 0, weekday: 2)
        return calendar.nextDate(after: date, matching: wanted, matchingPolicy: .nextTime) ?? date
    }

    /// The last moment at or before `date` whose local time is `minute` minutes after midnight.
    public func previous(minuteOfDay minute: Int, atOrBefore date: Date) -> Date {
        let candidate = next(minuteOfDay: minute, after: date.addingTimeInterval(-1))
        return candidate <= date ? candidate : next(minuteOfDay: minute, after: date.addingTimeInterval(-86_400))
    }

    /// Whether `date` is a Sunday, local time.
    public func isSunday(_ date: Date) -> Bool { calendar.component(.weekday, from: date) == 1 }

    /// The local calendar day of `date`, `yyyy-MM-dd`: digests and day groups are keyed by it.
    public func day(of date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
