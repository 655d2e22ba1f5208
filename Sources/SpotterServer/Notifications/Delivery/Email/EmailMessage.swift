/// One email to one person: a subject and the same content as plain text and as HTML, so every mail client
/// shows one of them ([RFC 2046 §5.1.4](https://www.rfc-editor.org/rfc/rfc2046#section-5.1.4)).
///
/// ```swift
/// let digest = EmailMessage(
///     to: "sam@example.com", subject: "Your week on Spotter",
///     text: "3 workouts, 1 new PR", html: "<p>3 workouts, <b>1 new PR</b></p>")
/// ```
public struct EmailMessage: Sendable, Equatable {
    /// The recipient's address, `local@domain`.
    public var to: String
    /// Any Unicode; encoded for the header as RFC 2047 requires.
    public var subject: String
    /// The plain-text alternative, for clients that do not render HTML and for accessibility.
    public var text: String
    /// The HTML alternative, the one most clients show.
    public var html: String

    public init(to: String, subject: String, text: String, html: String) {
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
    }
}
