import Foundation
import NIOCore
import NIOEmbedded
import NIOWebSocket
import SpotterCore
import SpotterModels
import Testing

@testable import SpotterServer

@Suite("Realtime connection writes")
struct RealtimeConnectionTests {
    private static let user = AccountRecord(
        id: .generate(), username: "slow", email: nil, passwordHash: nil, displayName: "Slow", appleSubject: nil,
        createdAt: Date())
    private static let session = AuthenticatedSession(
        account: user,
        token: TokenRecord(
            hash: "", userID: user.id, family: UUID(), kind: .access, createdAt: Date(),
            expiresAt: Date().addingTimeInterval(900)))

    @Test("frames reach the socket as text frames, in the order sent, whether sent alone or in a batch")
    func order() throws {
        let channel = EmbeddedChannel()
        let connection = RealtimeConnection(session: Self.session, connectedAt: Date(), channel: channel, bufferSize: 8)
        connection.send(text: "one")
        RealtimeConnection.broadcast("two", to: [connection])
        var batch = OutboundBatch()
        batch.add(text: "three", to: connection)
        batch.send()
        channel.embeddedEventLoop.run()
        var texts: [String] = []
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) {
            #expect(frame.opcode == .text && frame.fin)
            texts.append(String(buffer: frame.unmaskedData))
        }
        #expect(texts == ["one", "two", "three"])
        #expect(!connection.isOverflowed)
    }

    @Test(
        "frames written below the encoder are byte for byte what NIO's frame encoder makes",
        arguments: [5, 300, 70_000])
    func wireBytes(length: Int) throws {
        let text = String(repeating: "x", count: length)
        let direct = EmbeddedChannel(handler: WebSocketFrameEncoder())
        let connection = RealtimeConnection(session: Self.session, connectedAt: Date(), channel: direct, bufferSize: 8)
        connection.send(text: text)
        direct.embeddedEventLoop.run()
        let reference = EmbeddedChannel(handler: WebSocketFrameEncoder())
        try reference.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text))).wait()
        let written = try Self.bytes(direct)
        #expect(written.count >= length + 2)
        #expect(written == (try Self.bytes(reference)))
    }

    private static func bytes(_ channel: EmbeddedChannel) throws -> [UInt8] {
        var all: [UInt8] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { all += buffer.readableBytesView }
        return all
    }

    @Test(
        "a socket with more frames waiting than its buffer is ended once, as a slow consumer, without blocking the sender"
    )
    func overflow() async throws {
        // Writes that never reach the kernel: a client that stopped reading.
        let channel = EmbeddedChannel(handler: HoldWrites())
        let (ended, ending) = AsyncStream.makeStream(of: RealtimeConnection.Disconnection.self)
        let connection = RealtimeConnection(
            session: Self.session, connectedAt: Date(), channel: channel, bufferSize: 3,
            ended: { reason in
                ending.yield(reason)
                ending.finish()
            })
        for index in 0..<10 { connection.send(text: "frame \(index)") }
        channel.embeddedEventLoop.run()
        #expect(connection.isOverflowed)
        var reasons: [RealtimeConnection.Disconnection] = []
        for await reason in ended { reasons.append(reason) }
        #expect(reasons == [.slowConsumer])
        let held = try await channel.pipeline.handler(type: HoldWrites.self).map(\.held).get()
        // Frames past the buffer are not written; the close frame saying why is.
        #expect(held.map(\.opcode) == [.text, .text, .text, .connectionClose])
        var close = try #require(held.last).unmaskedData
        #expect(close.readWebSocketErrorCode() == .policyViolation)
        #expect(String(buffer: close) == "slow consumer: too many frames waiting")
    }

    @Test("a socket is idle once its client sent nothing for the timeout")
    func idle() {
        let connection = RealtimeConnection(
            session: Self.session, connectedAt: Date(), channel: EmbeddedChannel(), bufferSize: 3)
        let start = ContinuousClock.now
        connection.seen(now: start)
        #expect(!connection.isIdle(now: start + .seconds(59), timeout: .seconds(60)))
        #expect(connection.isIdle(now: start + .seconds(60), timeout: .seconds(60)))
        connection.seen(now: start + .seconds(50))
        #expect(!connection.isIdle(now: start + .seconds(100), timeout: .seconds(60)))
    }
}

/// Keeps every write pending, as a socket nobody reads does once the kernel's buffer is full.
private final class HoldWrites: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = WebSocketFrame
    var held: [WebSocketFrame] = []
    private var promises: [EventLoopPromise<Void>] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        held.append(unwrapOutboundIn(data))
        if let promise { promises.append(promise) }
    }

    func flush(context: ChannelHandlerContext) {}
}
