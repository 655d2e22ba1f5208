import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP connection that sends exactly the bytes a test writes and keeps everything the server answers, and
/// whether and when the server ended the connection: for what a stranger's malformed or slow requests get.
final class RawConnection: Sendable {
    /// What came back: the bytes, and whether the server closed its end (EOF or reset) before the deadline.
    struct Answer {
        let text: String
        let closed: Bool
        let elapsed: Duration

        /// The status line's code, if any answer came.
        var status: Int? {
            let parts = text.split(separator: "\r\n", maxSplits: 1).first?.split(separator: " ")
            guard let parts, parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
            return Int(parts[1])
        }

        func header(_ name: String) -> String? {
            let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
            for line in head.split(separator: "\r\n").dropFirst() {
                let pair = line.split(separator: ":", maxSplits: 1)
                if pair.count == 2, pair[0].lowercased() == name.lowercased() {
                    return pair[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    private let channel: any Channel
    private let collector: Collector
    private let opened = ContinuousClock.now

    private init(channel: any Channel, collector: Collector) {
        self.channel = channel
        self.collector = collector
    }

    static func open(port: Int) async throws -> RawConnection {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, collector: collector)
    }

    /// Opens a connection, sends `bytes`, and waits for the server to close it (up to `deadline`).
    static func send(_ bytes: [UInt8], port: Int, deadline: Duration = .seconds(5)) async throws -> Answer {
        let connection = try await open(port: port)
        defer { connection.close() }
        try await connection.write(bytes)
        return await connection.answer(waitingUpTo: deadline)
    }

    static func send(_ text: String, port: Int, deadline: Duration = .seconds(5)) async throws -> Answer {
        try await send(Array(text.utf8), port: port, deadline: deadline)
    }

    func write(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(bytes: bytes))
    }

    func write(_ text: String) async throws { try await write(Array(text.utf8)) }

    /// What arrived by the time the server ended the connection, or by `deadline` if it did not.
    func answer(waitingUpTo deadline: Duration) async -> Answer {
        let end = ContinuousClock.now + deadline
        while ContinuousClock.now < end, !collector.ended {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let (bytes, ended, endedAt) = collector.snapshot
        return Answer(
            text: String(decoding: bytes, as: UTF8.self), closed: ended, elapsed: (endedAt ?? .now) - opened)
    }

    /// Waits until `count` bytes or more have arrived (or the deadline passes) and returns them as text.
    func received(atLeast count: Int, deadline: Duration = .seconds(5)) async -> String {
        let end = ContinuousClock.now + deadline
        while ContinuousClock.now < end, collector.snapshot.bytes.count < count, !collector.ended {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return String(decoding: collector.snapshot.bytes, as: UTF8.self)
    }

    var isClosedByServer: Bool { collector.ended }

    func close() { channel.close(promise: nil) }
}

private final class Collector: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let state = NIOLockedValueBox<(bytes: [UInt8], endedAt: ContinuousClock.Instant?)>(([], nil))

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        state.withLockedValue { $0.bytes += bytes }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { end() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        end()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        end()  // a reset
        context.close(promise: nil)
    }

    private func end() { state.withLockedValue { $0.endedAt = $0.endedAt ?? .now } }

    var ended: Bool { state.withLockedValue { $0.endedAt != nil } }
    var snapshot: (bytes: [UInt8], ended: Bool, endedAt: ContinuousClock.Instant?) {
        state.withLockedValue { ($0.bytes, $0.endedAt != nil, $0.endedAt) }
    }
}
