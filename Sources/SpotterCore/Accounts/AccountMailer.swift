import Foundation

/// Sends the mail that account links need: a password reset, an email confirmation, a notice to the old
/// address. The server hands it to its SMTP relay; tests keep what was sent.
public protocol AccountMailer: Sendable {
    /// Sends one message. It does not throw: the caller's answer must not depend on whether mail went out
    /// (a reset for an unknown address and one for a known address look alike).
    func send(_ mail: AccountMail) async
}

/// One plain-text message to one address. `link`, when set, is what the message asks the person to open;
/// the HTML alternative makes it a link.
public struct AccountMail: Sendable, Equatable {
    public var to: String
    public var subject: String
    public var text: String
    public var link: String?

    public init(to: String, subject: String, text: String, link: String? = nil) {
        self.to = to
        self.subject = subject
        self.text = text
        self.link = link
    }
}
