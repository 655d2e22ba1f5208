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

    @Test("frames reach the socket as text frames, in the order sent, whether sent alone or in a batch")
    func order() throws {
        let channel = EmbeddedChannel()
        let connection = RealtimeConnection(user: Self.user, connectedAt: Date(), channel: channel, bufferSize: 8)
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

    @Test("a socket with more frames waiting than its buffer is marked for disconnection, without blocking the sender")
    func overflow() async throws {
        // Writes that never reach the kernel: a client that stopped reading.
        let channel = EmbeddedChannel(handler: HoldWrites())
        let connection = RealtimeConnection(user: Self.user, connectedAt: Date(), channel: channel, bufferSize: 3)
        for index in 0..<10 { connection.send(text: "frame \(index)") }
        channel.embeddedEventLoop.run()
        #expect(connection.isOverflowed)
        for await _ in connection.overflowSignal {}  // ends, so the socket's eviction starts
        let held = try await channel.pipeline.handler(type: HoldWrites.self).map(\.held).get()
        #expect(held == 3, "frames past the buffer are not written")
    }
}

/// Keeps every write pending, as a socket nobody reads does once the kernel's buffer is full.
private final class HoldWrites: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = WebSocketFrame
    var held = 0
    private var promises: [EventLoopPromise<Void>] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        held += 1
        if let promise { promises.append(promise) }
    }

    func flush(context: ChannelHandlerContext) {}
}
