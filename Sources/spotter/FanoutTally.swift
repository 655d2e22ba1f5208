import Foundation
import HummingbirdWSClient
import NIOConcurrencyHelpers

/// What a fan-out benchmark run measures, for the realtime socket (`FanoutRun`) and the Nostr relay
/// (`RelayFanoutRun`) alike: delivered share and latencies in milliseconds.
struct FanoutFigures {
    var deliveredShare: Double
    var p50: Double
    var p99: Double
    var max: Double
}

/// The bookkeeping both fan-out runs share: when each message went out, when each copy arrived, how many
/// subscribers are ready, and their sockets to close at the end.
final class FanoutTally: Sendable {
    let messages: Int
    private let sentAt: NIOLockedValueBox<[ContinuousClock.Instant?]>
    private let latencies = NIOLockedValueBox<[Double]>([])
    private let readyCount = NIOLockedValueBox(0)
    private let sockets = NIOLockedValueBox<[Task<Void, Never>]>([])
    private let writers = NIOLockedValueBox<[WebSocketOutboundWriter]>([])

    init(subscribers: Int, messages: Int) {
        self.messages = messages
        sentAt = NIOLockedValueBox(Array(repeating: nil, count: messages))
        latencies.withLockedValue { $0.reserveCapacity(subscribers * messages) }
    }

    var ready: Int { readyCount.withLockedValue { $0 } }
    func markReady() { readyCount.withLockedValue { $0 += 1 } }
    func keep(_ writer: WebSocketOutboundWriter) { writers.withLockedValue { $0.append(writer) } }
    func sent(_ number: Int) { sentAt.withLockedValue { $0[number] = .now } }

    /// Notes that a copy of message `number` arrived at `arrived`.
    func record(_ number: Int, arrived: ContinuousClock.Instant) {
        guard let sent = sentAt.withLockedValue({ number < $0.count ? $0[number] : nil }) else { return }
        let milliseconds = (arrived - sent).seconds * 1000
        latencies.withLockedValue { $0.append(milliseconds) }
    }

    /// Starts `count` subscriber tasks, a hundred at a time (never more than 200 ahead of those ready), and
    /// waits up to two minutes until each is ready. Returns how many are.
    func connect(_ count: Int, _ subscriber: @escaping @Sendable (Int) async -> Void) async throws -> Int {
        for index in 0..<count {
            let task = Task { await subscriber(index) }
            sockets.withLockedValue { $0.append(task) }
            if index % 100 == 99 {
                while ready < index - 200 { try await Task.sleep(for: .milliseconds(5)) }
            }
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while ready < count && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return ready
    }

    /// Waits until every ready subscriber has every message or `drain` passed, then computes the figures, the
    /// delivered share out of `outOf` copies.
    func figures(drain: Duration, poll: Duration, outOf: Int) async throws -> FanoutFigures {
        let expected = ready * messages
        let deadline = ContinuousClock.now + drain
        while latencies.withLockedValue({ $0.count }) < expected && ContinuousClock.now < deadline {
            try await Task.sleep(for: poll)
        }
        let sorted = latencies.withLockedValue { $0 }.sorted()
        return FanoutFigures(
            deliveredShare: Double(sorted.count) / Double(max(1, outOf)),
            p50: FeedBench.percentile(0.50, of: sorted), p99: FeedBench.percentile(0.99, of: sorted),
            max: sorted.last ?? 0)
    }

    func closeAll() async {
        for writer in writers.withLockedValue({ $0 }) { try? await writer.close(.normalClosure, reason: nil) }
        for task in sockets.withLockedValue({ $0 }) { task.cancel() }
    }
}
