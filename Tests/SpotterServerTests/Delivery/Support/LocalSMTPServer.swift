import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// An SMTP server on 127.0.0.1 that speaks the server side of RFC 5321 for real: greeting, EHLO with its
/// extensions, AUTH PLAIN, MAIL/RCPT/DATA with dot-unstuffing, QUIT. Like a strict relay it drops a client
/// that ends a line with a bare LF. It keeps every message it accepts.
struct LocalSMTPServer: Sendable {
    /// TLS from the first byte, or offered through STARTTLS and demanded before AUTH and MAIL (RFC 3207 §4).
    enum TLS: Sendable {
        case implicit(TestCertificate)
        case startTLS(TestCertificate)
    }

    var tls: TLS?
    /// The login it demands before MAIL, when set.
    var credentials: (username: String, password: String)?
    /// What it answers to RCPT TO, such as `550 5.1.1 no such user`; `250 2.1.5 OK` when `nil`.
    var recipientReply: String?
    /// A server that accepts connections but never says a word.
    var silent = false
    let mailbox = SMTPMailbox()

    /// Runs the server while `body` runs; `body` gets its port.
    func run(_ body: @Sendable (_ port: Int) async throws -> Void) async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if case .implicit(let certificate) = tls {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLServerHandler(context: try certificate.serverContext))
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(CRLFLineDecoder()))
                    return try NIOAsyncChannel<String, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let port = server.channel.localAddress?.port ?? 0
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.executeThenClose { connections in
                    try await withThrowingDiscardingTaskGroup { sessions in
                        for try await connection in connections {
                            sessions.addTask { try? await serve(connection) }
                        }
                    }
                }
            }
            try await body(port)
            group.cancelAll()
        }
    }

    private func serve(_ connection: NIOAsyncChannel<String, ByteBuffer>) async throws {
        try await connection.executeThenClose { inbound, outbound in
            func reply(_ lines: String...) async throws {
                try await outbound.write(ByteBuffer(string: lines.map { $0 + "\r\n" }.joined()))
            }
            if silent {
                for try await _ in inbound {}
                return
            }
            try await reply("220 localhost ESMTP Spotter test relay")
            var authenticated = credentials == nil
            var secure = if case .implicit = tls { true } else { false }
            var envelope = ReceivedMail()
            var lines = inbound.makeAsyncIterator()
            while let line = try await lines.next() {
                let command = line.uppercased()
                let mustStartTLS = if case .startTLS = tls, !secure { true } else { false }
                if command.hasPrefix("EHLO ") {
                    envelope.helo = String(line.dropFirst(5))
                    let offers = (mustStartTLS ? ["STARTTLS"] : []) + ["8BITMIME", "AUTH PLAIN"]
                    try await outbound.write(
                        ByteBuffer(string: (["localhost greets you"] + offers).map { "250-\($0)\r\n" }.joined()))
                    try await reply("250 ENHANCEDSTATUSCODES")
                } else if command == "STARTTLS", mustStartTLS, case .startTLS(let certificate) = tls {
                    // The reply and the TLS handler go in one turn of the event loop: the client's ClientHello
                    // follows the 220 at once, and a handler added a turn later lets the line decoder eat it
                    // (a flaky "EOF during handshake" on a loaded machine).
                    let context = try certificate.serverContext
                    let channel = connection.channel
                    try await channel.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
                        let ready = channel.writeAndFlush(ByteBuffer(string: "220 2.0.0 Ready to start TLS\r\n"))
                        do {
                            try channel.pipeline.syncOperations.addHandler(
                                NIOSSLServerHandler(context: context), position: .first)
                        } catch {
                            return channel.eventLoop.makeFailedFuture(error)
                        }
                        return ready
                    }.get()
                    secure = true
                    envelope = ReceivedMail()
                } else if mustStartTLS && (command.hasPrefix("AUTH") || command.hasPrefix("MAIL")) {
                    try await reply("530 5.7.0 Must issue a STARTTLS command first")
                } else if command.hasPrefix("AUTH PLAIN") {
                    var token = String(line.dropFirst("AUTH PLAIN".count)).trimmingCharacters(in: .whitespaces)
                    if token.isEmpty {
                        try await reply("334 ")
                        token = try await lines.next() ?? ""
                    }
                    let fields = Data(base64Encoded: token).map { String(decoding: $0, as: UTF8.self) }?
                        .split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
                    authenticated =
                        fields?.count == 3 && fields?[1] == credentials?.username
                        && fields?[2] == credentials?.password
                    await mailbox.loggedIn(as: fields?.count == 3 ? fields?[1] : nil)
                    try await reply(authenticated ? "235 2.7.0 Authentication successful" : "535 5.7.8 Bad credentials")
                } else if command.hasPrefix("MAIL FROM:") {
                    guard authenticated else { try await reply("530 5.7.0 Authentication required"); continue }
                    envelope.from = String(line.dropFirst("MAIL FROM:".count))
                    try await reply("250 2.1.0 OK")
                } else if command.hasPrefix("RCPT TO:") {
                    envelope.to = String(line.dropFirst("RCPT TO:".count))
                    try await reply(recipientReply ?? "250 2.1.5 OK")
                } else if command == "DATA" {
                    try await reply("354 End data with <CR><LF>.<CR><LF>")
                    var data: [String] = []
                    while let dataLine = try await lines.next(), dataLine != "." {
                        // RFC 5321 §4.5.2: drop the first of a line's leading dots.
                        data.append(dataLine.hasPrefix(".") ? String(dataLine.dropFirst()) : dataLine)
                    }
                    envelope.data = data.map { $0 + "\r\n" }.joined()
                    envelope.secure = secure
                    await mailbox.received(envelope)
                    try await reply("250 2.0.0 OK queued")
                } else if command == "QUIT" {
                    try await reply("221 2.0.0 Bye")
                    return
                } else if command == "RSET" || command == "NOOP" {
                    try await reply("250 2.0.0 OK")
                } else {
                    try await reply("502 5.5.2 Command not recognized")
                }
            }
        }
    }
}

/// One accepted message: its envelope and its data, dot-unstuffed, CRLF line ends.
struct ReceivedMail: Sendable {
    var helo = ""
    var from = ""
    var to = ""
    var data = ""
    /// Whether the message came over TLS.
    var secure = false
}

/// What reached the server.
actor SMTPMailbox {
    private(set) var messages: [ReceivedMail] = []
    private(set) var logins: [String?] = []

    func received(_ mail: ReceivedMail) { messages.append(mail) }
    func loggedIn(as user: String?) { logins.append(user) }
}

/// Splits the stream into CRLF-terminated lines; a bare LF is a protocol error, as strict relays treat it.
struct CRLFLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = String
    struct BareLineFeed: Error {}

    func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else { return .needMoreData }
        let length = newline - buffer.readerIndex
        guard length > 0, buffer.getInteger(at: newline - 1, as: UInt8.self) == UInt8(ascii: "\r") else {
            throw BareLineFeed()
        }
        let line = buffer.readString(length: length - 1)!
        buffer.moveReaderIndex(forwardBy: 2)
        context.fireChannelRead(Self.wrapInboundOut(line))
        return .continue
    }
}
