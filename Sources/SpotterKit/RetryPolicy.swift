import Foundation

/// When SpotterKit tries a request again (the Nova seed's policy), for `SpotterClient` within one call and for
/// the outbox (`ActionQueue`) across drains:
///
/// - 401: refresh the tokens once (concurrent 401s share one refresh), then retry;
/// - 429, or 5xx with `Retry-After`: wait as long as it says (or the backoff, when it says nothing), then retry;
/// - 5xx, 408, a 409 for a key still being processed, and network errors: exponential backoff with jitter;
/// - any other 4xx: never (`SpotterClientError.isTransient`).
///
/// A call is tried at most `maxAttempts` times in all; a refresh does not count as an attempt. The outbox never
/// runs out of attempts: its actions wait for as long as the network or the server is away (`outbox`).
public struct RetryPolicy: Sendable, Equatable {
    public var maxAttempts: Int
    /// The wait before the second try; each later wait doubles, up to `maxDelay`.
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// The longest `Retry-After` honoured; a server asking for longer gets the error back instead.
    public var maxRetryAfter: Duration

    public init(
        maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(8),
        maxRetryAfter: Duration = .seconds(60)
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// No retries: for callers that handle failure themselves (the outbox retries on its own schedule).
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The outbox's schedule (`ActionQueue`): an action is never given up for want of a network or a working
    /// server. The first wait is 1 s, doubling to 5 minutes: a phone in a tunnel for a day then costs about one
    /// failed request every few minutes (a drain stops at the first network failure), and a server back from
    /// an outage, which sends no signal, is noticed within minutes. A reconnect or the user's ask does not wait
    /// for the backoff at all (`drain(ignoringBackoff:)`). A `Retry-After` is honoured up to a day; a server
    /// asking for longer is asked again after a day.
    public static let outbox = RetryPolicy(
        maxAttempts: .max, baseDelay: .seconds(1), maxDelay: .seconds(300), maxRetryAfter: .seconds(24 * 3600))

    /// The wait after failed attempt `attempt` (1-based): "full jitter", a random share of the exponential
    /// delay, so many clients failing together don't come back together.
    public func backoff(after attempt: Int, random: Double) -> Duration {
        let exponential = baseDelay * (1 << min(max(attempt - 1, 0), 20))
        let capped = min(exponential, maxDelay)
        return capped * min(max(random, 0), 1)
    }

    /// The wait before trying again after `error` ended attempt `attempt` (1-based): the server's `Retry-After`
    /// when it gave one, else the backoff. Nil when trying again cannot help (`error.isTransient` is false), or
    /// when the server asks for longer than `maxRetryAfter`.
    public func wait(after error: SpotterClientError, attempt: Int, random: Double) -> Duration? {
        guard error.isTransient else { return nil }
        if case .retryLater(_, let after) = error { return after > maxRetryAfter ? nil : after }
        return backoff(after: attempt, random: random)
    }

    /// The wait a 429 asks for: its `Retry-After` in seconds (or an HTTP date), else the backoff. Nil when
    /// the server asks for longer than `maxRetryAfter`.
    public func waitFor429(retryAfter header: String?, after attempt: Int, random: Double, now: Date) -> Duration? {
        guard let wait = header.flatMap({ Self.retryAfter($0, now: now) }) else {
            return backoff(after: attempt, random: random)
        }
        return wait > maxRetryAfter ? nil : wait
    }

    /// A `Retry-After` value ([RFC 9110 §10.2.3](https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3)),
    /// seconds or an HTTP date, as a wait from `now`; nil when it is neither.
    static func retryAfter(_ header: String, now: Date) -> Duration? {
        let seconds: Double
        if let value = Double(header.trimmingCharacters(in: .whitespaces)) {
            seconds = value
        } else if let date = httpDate(header) {
            seconds = date.timeIntervalSince(now)
        } else {
            return nil
        }
        return .milliseconds(Int64(max(0, seconds) * 1000))
    }

    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
