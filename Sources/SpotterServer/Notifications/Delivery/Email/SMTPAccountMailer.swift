import Foundation
import SpotterCore

/// Account links (password resets, email confirmations) through the SMTP relay. The link is in the text;
/// the HTML alternative is the same text, escaped, with the link made clickable. Nothing is logged, so a
/// link's token never reaches a log.
struct SMTPAccountMailer: AccountMailer {
    let mailer: SMTPMailer

    func send(_ mail: AccountMail) async {
        _ = await mailer.send(
            EmailMessage(to: mail.to, subject: mail.subject, text: mail.text, html: Self.html(mail)))
    }

    static func html(_ mail: AccountMail) -> String {
        let paragraphs = mail.text.components(separatedBy: "\n\n").map { paragraph in
            let escaped = escape(paragraph).replacingOccurrences(of: "\n", with: "<br>")
            guard let link = mail.link else { return "<p>\(escaped)</p>" }
            let shown = escape(link)
            return "<p>" + escaped.replacingOccurrences(of: shown, with: "<a href=\"\(shown)\">\(shown)</a>") + "</p>"
        }
        return paragraphs.joined(separator: "\n")
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
