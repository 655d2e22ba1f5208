import Foundation
import SpotterCore

/// Keeps the account mail the server sends, in order, for a test to read as a person reads their inbox.
final class RecordingMailer: AccountMailer, @unchecked Sendable {
    private let lock = NSLock()
    private var mails: [AccountMail] = []
    private let stream: AsyncStream<AccountMail>
    private let continuation: AsyncStream<AccountMail>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: AccountMail.self)
    }

    func send(_ mail: AccountMail) async {
        lock.withLock { mails.append(mail) }
        continuation.yield(mail)
    }

    var sent: [AccountMail] { lock.withLock { mails } }

    /// The next mail, in the order they were sent; waits for it (a reset is mailed after the answer).
    func next() async -> AccountMail? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }

    /// The token of the link in a mail (`…?token=spl_…`).
    static func token(in mail: AccountMail?) -> String? {
        guard let link = mail?.link, let range = link.range(of: "token=") else { return nil }
        return String(link[range.upperBound...])
    }
}
