import Foundation

/// Reads an HTTP `Retry-After` value ([RFC 9110 §10.2.3](https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3)):
/// a number of seconds, or an HTTP-date that this turns into seconds from `now`.
///
/// Providers that are overloaded say when to come back; honouring it is what keeps a retry from being
/// refused again.
enum RetryAfter {
    static func seconds(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return TimeInterval(max(0, seconds)) }
        guard let date = httpDate(value) else { return nil }
        return max(0, date.timeIntervalSince(now).rounded(.up))
    }

    /// The IMF-fixdate form, `Sun, 06 Nov 1994 08:49:37 GMT`, the only one a sender may produce.
    private static func httpDate(_ value: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: value)
    }
}
