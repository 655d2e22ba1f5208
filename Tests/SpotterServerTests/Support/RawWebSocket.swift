import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SpotterModels

/// A WebSocket client that reads only when asked and sends any frame, written from RFC 6455 rather than from
/// a library, so tests see exactly what the server answers.
///
/// It speaks RFC 6455 by hand over plain TCP with a small receive buffer and automatic reads off, so nothing
/// leaves the kernel unless the test asks: after the upgrade and a join, what the server sends piles up. That
/// makes it the slow consumer the server must cut off without delaying anyone.
final class RawWebSocket: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A frame from the server (servers never mask).
    enum Frame: Equatable {
        case text(String)
        case close(code: UInt16, reason: String)
        case pong(String)
        case other(opcode: UInt8)

        var textValue: String? {
            if case .text(let text) = self { return text }
            return nil
        }
    }

    private let channel: any Channel
    private let bytes: Collector

    private init(channel: any Channel, bytes: Collector) {
        self.channel = channel
        self.bytes = bytes
    }

    /// Upgrades a new connection; with `reusing`, only after a plain `GET /healthz` on it has been answered, as
    /// a client does that keeps its connections alive (Node's built-in WebSocket after a `fetch`).
    static func connect(port: Int, token: String, reusing: Bool = false) async throws -> RawWebSocket {
        try await connect(port: port, path: "/socket/websocket?vsn=2.0.0&token=\(token)", reusing: reusing)
    }

    /// Upgrades on `path` (`/relay`, or the Phoenix socket's with its token), as `connect(port:token:reusing:)`.
    static func connect(port: Int, path: String, reusing: Bool = false) async throws -> RawWebSocket {
        let socket = try await open(port: port)
        if reusing {
            let answer = try await socket.exchange("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            guard answer.hasPrefix("HTTP/1.1 200") else { throw Failure(description: "healthz: \(answer)") }
            let length =
                answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            try await socket.skip(length)
        }
        let head = try await socket.exchange(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: \(Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString())"
                + "\r\n\r\n")
        guard head.hasPrefix("HTTP/1.1 101") else { throw Failure(description: "no upgrade: \(head)") }
        return socket
    }

    /// Sends one HTTP request exactly as written and returns the head of the response.
    static func request(port: Int, _ text: String) async throws -> String {
        let socket = try await open(port: port)
        defer { Task { await socket.close() } }
        return try await socket.exchange(text)
    }

    private static func open(port: Int) async throws -> RawWebSocket {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: false)
            .channelOption(.socketOption(.so_rcvbuf), value: 4096)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawWebSocket(channel: channel, bytes: collector)
    }

    private func exchange(_ request: String) async throws -> String {
        try await write(Array(request.utf8))
        return try await readResponseHead()
    }

    /// Sends a text frame, masked as RFC 6455 requires of clients.
    func sendText(_ text: String) async throws { try await send(opcode: 0x1, Array(text.utf8)) }

    /// Sends one frame: `opcode` 0 continues a message, 1 text, 2 binary, 8 close, 9 ping. `masked: false`
    /// breaks RFC 6455's rule for clients.
    /// `rsv1` sets the first reserved bit, which means nothing without a negotiated extension.
    func send(
        opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv1: Bool = false
    )
        async throws
    {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            frame.append(maskBit | UInt8(payload.count))
        } else {
            frame += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        }
        guard masked else { return try await write(frame + payload) }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try await write(frame)
    }

    /// Reads (only now) until a frame matching `predicate` arrives; frames before it are dropped. The deadline
    /// is for a frame that never comes, not a pace: on PostgreSQL under the whole suite (rust-nostr's Python
    /// clients and relays included) a post's frame once took longer than 5 s to cross LISTEN/NOTIFY.
    func read(until predicate: (Frame) -> Bool, timeout: Duration = .seconds(15)) async throws -> Frame {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            while let frame = bytes.nextFrame() {
                if predicate(frame) { return frame }
            }
            channel.read()
            try await Task.sleep(for: .milliseconds(5))
        }
        throw Failure(description: "no matching frame")
    }

    /// Reads everything from now on as it arrives, so nothing is lost if the server closes the connection
    /// first (a closed channel takes no more reads).
    func readAsItArrives() async throws {
        try await channel.setOption(.autoRead, value: true).get()
        channel.read()
    }

    /// Starts reading again and returns every frame until the server ends the connection.
    func drainUntilClosed(timeout: Duration = .seconds(10)) async throws -> [Frame] {
        // Already closed (after `readAsItArrives`, with everything read): the option can no longer be set.
        try? await channel.setOption(.autoRead, value: true).get()
        channel.read()
        let deadline = ContinuousClock.now + timeout
        var frames: [Frame] = []
        while ContinuousClock.now < deadline {
            let ended = bytes.ended  // read before taking frames, so none that came before the end is missed
            while let frame = bytes.nextFrame() { frames.append(frame) }
            if ended { return frames }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw Failure(description: "the server kept the connection open; \(frames.count) frames so far")
    }

    func close() async { try? await channel.close() }

    private func write(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(bytes: bytes))
    }

    /// Reads and drops `count` bytes (a response's body).
    private func skip(_ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        var left = count
        while left > 0, ContinuousClock.now < deadline {
            left -= bytes.drop(upTo: left)
            if left > 0 {
                channel.read()
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        if left > 0 { throw Failure(description: "the body did not arrive") }
    }

    private func readResponseHead() async throws -> String {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if let head = bytes.takeHead() { return head }
            channel.read()
            try await Task.sleep(for: .milliseconds(5))
        }
        throw Failure(description: "no response")
    }
}

/// Collects what arrives and cuts it into the HTTP response head and then WebSocket frames.
private final class Collector: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let state = NIOLockedValueBox<(buffer: [UInt8], ended: Bool)>(([], false))

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        state.withLockedValue { $0.buffer += bytes }
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.withLockedValue { $0.ended = true }
        context.fireChannelInactive()
    }

    var ended: Bool { state.withLockedValue { $0.ended } }

    /// Drops up to `count` bytes from the front; returns how many it dropped.
    func drop(upTo count: Int) -> Int {
        state.withLockedValue { state in
            let dropped = min(count, state.buffer.count)
            state.buffer.removeFirst(dropped)
            return dropped
        }
    }

    func takeHead() -> String? {
        state.withLockedValue { state in
            let end: [UInt8] = Array("\r\n\r\n".utf8)
            guard
                let index = (0..<max(0, state.buffer.count - 3)).first(where: {
                    Array(state.buffer[$0..<$0 + 4]) == end
                })
            else { return nil }
            let head = String(decoding: state.buffer[..<index], as: UTF8.self)
            state.buffer.removeFirst(index + 4)
            return head
        }
    }

    func nextFrame() -> RawWebSocket.Frame? {
        state.withLockedValue { state in
            let buffer = state.buffer
            guard buffer.count >= 2 else { return nil }
            let opcode = buffer[0] & 0x0f
            var length = Int(buffer[1] & 0x7f)
            var offset = 2
            if length == 126 {
                guard buffer.count >= 4 else { return nil }
                length = Int(buffer[2]) << 8 | Int(buffer[3])
                offset = 4
            } else if length == 127 {
                guard buffer.count >= 10 else { return nil }
                length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                offset = 10
            }
            guard buffer.count >= offset + length else { return nil }
            let payload = Array(buffer[offset..<offset + length])
            state.buffer.removeFirst(offset + length)
            switch opcode {
            case 0x1: return .text(String(decoding: payload, as: UTF8.self))
            case 0x8:
                let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1005
                return .close(code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
            case 0xA: return .pong(String(decoding: payload, as: UTF8.self))
            default: return .other(opcode: opcode)
            }
        }
    }
}
