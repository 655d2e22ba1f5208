import Foundation
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL
import SpotterCore

/// Hands email to an SMTP relay ([RFC 5321](https://www.rfc-editor.org/rfc/rfc5321)), one connection per
/// message, for digests and other mail that can wait for a retry.
///
/// The conversation is decided by ``SMTPSession``; this only moves its lines over a SwiftNIO connection,
/// upgrading it to TLS when the session asks. Nothing here logs, so the password cannot end up in a log.
///
/// ```swift
/// let mailer = SMTPMailer(configuration: smtp)
/// if case .gone = await mailer.send(digest) { try await accounts.markEmailUndeliverable(user) }
/// ```
public struct SMTPMailer: Sendable {
    public let configuration: SMTPConfiguration
    private let eventLoopGroup: any EventLoopGroup
    private let now: @Sendable () -> Date

    public init(
        configuration: SMTPConfiguration, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        now: @Sendable @escaping () -> Date = Date.init
    ) {
        self.configuration = configuration
        self.eventLoopGroup = eventLoopGroup
        self.now = now
    }

    /// Sends `message`; 4xx replies, timeouts and connection failures come back as `.retry`, a recipient the
    /// relay does not know as `.gone`, other refusals as `.failed`.
    public func send(_ message: EmailMessage) async -> DeliveryOutcome {
        guard Self.isPlainAddress(message.to) else { return .gone(reason: "not an email address") }
        guard Self.isPlainAddress(configuration.fromAddress) else { return .failed(reason: "bad sender address") }
        if configuration.credentials != nil && configuration.security == .none && !configuration.isLoopback {
            return .failed(reason: "refusing to send credentials without TLS")
        }
        let rendered = MIMEMessage(
            from: configuration.fromAddress, fromName: configuration.fromName, message: message, date: now()
        ).rendered
        let session = SMTPSession(configuration: configuration, recipient: message.to, message: rendered)
        do {
            let tls =
                configuration.security == .none
                ? nil : try NIOSSLContext(configuration: configuration.tlsConfiguration)
            return try await converse(session, tls: tls)
        } catch let error as NIOSSLError {
            return .retry(reason: "TLS with the relay failed: \(error)", after: nil)
        } catch {
            return .retry(reason: "relay connection failed: \(error)", after: nil)
        }
    }

    private func converse(_ session: SMTPSession, tls: NIOSSLContext?) async throws -> DeliveryOutcome {
        let configuration = configuration
        let serverName = Self.serverName(configuration.host)
        let channel = try await ClientBootstrap(group: eventLoopGroup)
            .connectTimeout(configuration.timeout)
            .connect(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handlers = channel.pipeline.syncOperations
                    if configuration.security == .tls, let tls {
                        try handlers.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    }
                    try handlers.addHandler(IdleStateHandler(readTimeout: configuration.timeout))
                    try handlers.addHandler(SMTPReplyTimeout())
                    try handlers.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var session = session
            var lines = inbound.makeAsyncIterator()
            func nextReply() async throws -> SMTPReply {
                var reader = SMTPReply.Reader()
                while let line = try await lines.next() {
                    if let reply = try reader.read(String(buffer: line)) { return reply }
                }
                throw SMTPConnectionClosed()
            }
            while true {
                var action = session.receive(try await nextReply())
                if case .startTLS = action, let tls {
                    // Nearest the socket, so everything from here on is encrypted (RFC 3207 §4).
                    try await channel.channel.eventLoop.submit {
                        let handler = try NIOSSLClientHandler(context: tls, serverHostname: serverName)
                        try channel.channel.pipeline.syncOperations.addHandler(handler, position: .first)
                    }.get()
                    action = session.tlsEstablished()
                }
                switch action {
                case .send(let line):
                    try await outbound.write(ByteBuffer(string: line + "\r\n"))
                case .sendMessage(let text):
                    try await outbound.write(ByteBuffer(string: text))
                case .startTLS:
                    return .failed(reason: "TLS requested without a TLS context")
                case .finish(let outcome):
                    // Polite, not needed: the outcome is already known, so a relay that hangs up is fine.
                    try? await outbound.write(ByteBuffer(string: "QUIT\r\n"))
                    _ = try? await nextReply()
                    return outcome
                }
            }
        }
    }

    /// `local@domain` with nothing that could break out of `<…>` or a header line.
    static func isPlainAddress(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && !address.contains(where: { $0.isWhitespace || "<>\"(),;:\\".contains($0) || !$0.isASCII })
    }

    /// The SNI name: a host name, never an IP literal (RFC 6066 §3).
    private static func serverName(_ host: String) -> String? {
        (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }
}

/// The relay closed the connection in the middle of the conversation.
struct SMTPConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the relay closed the connection" }
}

/// Turns a read that waited too long into an error that ends the conversation, so one silent relay cannot
/// hold a delivery worker forever.
final class SMTPReplyTimeout: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    struct TimedOut: Error, CustomStringConvertible {
        var description: String { "the relay did not answer in time" }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            context.fireErrorCaught(TimedOut())
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
