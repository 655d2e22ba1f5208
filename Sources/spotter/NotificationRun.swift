import AsyncHTTPClient
import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// One notification benchmark run: the recipients' sockets, the kudos requests, and what arrived when.
final class NotificationRun: Sendable {
    struct Figures {
        var delivered: Int
        var deliveredShare: Double
        /// Milliseconds from the kudos request to the `notification` event.
        var p50: Double
        var p99: Double
        var max: Double
    }

    let base: String
    let plan: NotificationPlan
    let events: Int
    let logger: Logger
    /// Event number by post id: every event gives kudos to a post of its own.
    private let eventOfPost: [String: Int]
    private let sentAt: NIOLockedValueBox<[ContinuousClock.Instant?]>
    private let latencies = NIOLockedValueBox<[Double]>([])
    private let joined = NIOLockedValueBox(0)
    private let sockets = NIOLockedValueBox<[Task<Void, Never>]>([])
    private let writers = NIOLockedValueBox<[WebSocketOutboundWriter]>([])

    init(base: String, plan: NotificationPlan, events: Int, logger: Logger) {
        self.base = base
        self.plan = plan
        self.events = events
        self.logger = logger
        var eventOfPost: [String: Int] = [:]
        for number in 0..<events { eventOfPost[Self.post(of: number, in: plan)] = number }
        self.eventOfPost = eventOfPost
        sentAt = NIOLockedValueBox(Array(repeating: nil, count: events))
        latencies.withLockedValue { $0.reserveCapacity(events) }
    }

    /// Event `number` goes to the recipients in turn, each time to the next of their posts.
    static func post(of number: Int, in plan: NotificationPlan) -> String {
        let recipient = plan.recipients[number % plan.recipients.count]
        return recipient.posts[number / plan.recipients.count].lowercased()
    }

    /// Connects each recipient and joins its `user:<id>` topic; returns how many joined.
    func connectAll() async throws -> Int {
        let socketBase = base.replacingOccurrences(of: "http://", with: "ws://")
        for recipient in plan.recipients {
            let task = Task {
                await self.listen(
                    "\(socketBase)/socket/websocket?vsn=2.0.0&token=\(recipient.token)", topic: "user:\(recipient.id)")
            }
            sockets.withLockedValue { $0.append(task) }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while joined.withLockedValue({ $0 }) < plan.recipients.count && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return joined.withLockedValue { $0 }
    }

    private func listen(_ url: String, topic: String) async {
        _ = try? await WebSocketClient.connect(url: url, configuration: PhoenixHeartbeat.client, logger: logger) {
            inbound, outbound, _ in
            self.writers.withLockedValue { $0.append(outbound) }
            try await outbound.write(.text(#"["1","1","\#(topic)","phx_join",{}]"#))
            let heartbeat = PhoenixHeartbeat.start(on: outbound)
            defer { heartbeat.cancel() }
            let joinReply = #"["1","1","\#(topic)","phx_reply""#
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message else { continue }
                let arrived = ContinuousClock.now
                if text.contains(#""notification","#), let post = Self.postID(in: text) {
                    self.record(post, arrived: arrived)
                } else if text.hasPrefix(joinReply) {
                    self.joined.withLockedValue { $0 += 1 }
                }
            }
        }
    }

    /// The `post_id` of a notification group frame, found without decoding the JSON.
    static func postID(in text: String) -> String? {
        guard let range = text.range(of: #""post_id":""#) else { return nil }
        return String(text[range.upperBound...].prefix(36)).lowercased()
    }

    private func record(_ post: String, arrived: ContinuousClock.Instant) {
        guard let number = eventOfPost[post],
            let sent = sentAt.withLockedValue({ state -> ContinuousClock.Instant? in
                // The first arrival counts; a later frame of the same group (a count update) does not.
                defer { state[number] = nil }
                return state[number]
            })
        else { return }
        latencies.withLockedValue { $0.append((arrived - sent).seconds * 1000) }
    }

    /// Gives the kudos at a steady rate, each in its own request (at most 64 connections); returns how many
    /// the server accepted.
    func publish(rate: Double) async throws -> Int {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let accepted = NIOLockedValueBox(0)
        let start = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for number in 0..<events {
                try? await Task.sleep(until: start + .seconds(Double(number) / rate), clock: .continuous)
                group.addTask {
                    var request = HTTPClientRequest(
                        url: "\(self.base)/api/v1/posts/\(Self.post(of: number, in: self.plan))/kudos")
                    request.method = .POST
                    request.headers.add(
                        name: "Authorization", value: "Bearer \(self.plan.givers[number % self.plan.givers.count])")
                    self.sentAt.withLockedValue { $0[number] = .now }
                    do {
                        let response = try await client.execute(request, timeout: .seconds(30))
                        _ = try await response.body.collect(upTo: 1 << 20)
                        if response.status == .ok {
                            accepted.withLockedValue { $0 += 1 }
                        } else {
                            ProgressBar.write("kudos \(number): HTTP \(response.status.code)\n")
                        }
                    } catch {
                        ProgressBar.write("kudos \(number) failed: \(error)\n")
                    }
                }
            }
        }
        try await client.shutdown()
        return accepted.withLockedValue { $0 }
    }

    /// Waits until every accepted event's notification arrived, or `drain` passed, then computes the figures.
    func collect(expected: Int, drain: Duration) async throws -> Figures {
        let deadline = ContinuousClock.now + drain
        while latencies.withLockedValue({ $0.count }) < expected && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let sorted = latencies.withLockedValue { $0 }.sorted()
        return Figures(
            delivered: sorted.count, deliveredShare: Double(sorted.count) / Double(max(1, expected)),
            p50: FeedBench.percentile(0.50, of: sorted), p99: FeedBench.percentile(0.99, of: sorted),
            max: sorted.last ?? 0)
    }

    func closeAll() async {
        for writer in writers.withLockedValue({ $0 }) { try? await writer.close(.normalClosure, reason: nil) }
        for task in sockets.withLockedValue({ $0 }) { task.cancel() }
    }
}
