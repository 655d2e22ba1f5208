import Foundation
import Logging
import NIOCore
import NIOWebSocket
import SpotterCore
import SpotterModels
import SpotterNostr

/// `/relay`: a NIP-01 relay on the server's own port (NIP-09 deletions, NIP-11 on the same URL, NIP-42 `AUTH`,
/// NIP-45 `COUNT`, NIP-50 search). Anyone may connect; what a socket may write and read is
/// `NostrRelayService`'s to say.
///
/// <https://github.com/nostr-protocol/nips/blob/master/01.md>
struct NostrRelaySocket: Sendable {
    static let path = "/relay"

    let relay: NostrRelayService
    let hub: NostrRelayHub
    /// This relay's address as clients name it in NIP-42 `AUTH` events (`wss://host/relay`).
    let relayURL: String
    let outboundBuffer: Int
    let closeGrace: Duration

    var limits: NostrRelayLimits { relay.limits }

    /// The handlers that serve an upgraded relay socket, after the WebSocket frame codec.
    func handlers(for channel: any Channel) -> [any ChannelHandler] {
        let writer = SocketWriter(channel: channel, bufferSize: outboundBuffer, closeGrace: closeGrace)
        writer.onOverflow = { [weak writer] in
            writer?.close(.policyViolation, reason: "slow consumer: too many frames waiting")
        }
        let connection = NostrRelayConnection(writer: writer, challenge: OpaqueToken.generateLink())
        return [
            ClientFrameRules(),
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 256,
                maxAccumulatedFrameSize: limits.maxMessageLength),
            NostrRelayFrameHandler(connection: connection, socket: self),
        ]
    }

    func opened(_ connection: NostrRelayConnection) {
        hub.add(connection)
        connection.send(.auth(challenge: connection.challenge))
    }

    func closed(_ connection: NostrRelayConnection) { hub.remove(connection) }

    func handle(_ message: NostrClientMessage, on connection: NostrRelayConnection) async {
        switch message {
        case .event(let event):
            let (accepted, text) = await relay.publish(event)
            NostrRelayMetrics.event(accepted: accepted, message: text)
            connection.send(.ok(event.id, accepted: accepted, message: text))
        case .request(let subscription, let filters):
            await request(subscription, filters, on: connection)
        case .close(let subscription):
            connection.close(subscription)
        case .count(let subscription, let filters):
            if let refusal = refusal(subscription, filters) {
                connection.send(.closed(subscription: subscription, message: refusal))
                return
            }
            do {
                let count = try await relay.count(filters, reader: connection.reader)
                connection.send(.count(subscription: subscription, count: count))
            } catch {
                connection.send(.closed(subscription: subscription, message: "error: could not count; try again"))
            }
        case .auth(let event):
            switch await relay.authenticate(event, challenge: connection.challenge, relayURL: relayURL) {
            case .success(let reader):
                connection.reader = reader
                connection.send(.ok(event.id, accepted: true, message: ""))
            case .failure(let refusal):
                connection.send(.ok(event.id, accepted: false, message: refusal.message))
            }
        }
    }

    private func request(_ subscription: String, _ filters: [NostrFilter], on connection: NostrRelayConnection) async {
        if let refusal = refusal(subscription, filters) {
            connection.send(.closed(subscription: subscription, message: refusal))
            return
        }
        guard connection.open(subscription, filters: filters, limit: limits.maxSubscriptions) else {
            connection.send(
                .closed(
                    subscription: subscription,
                    message: "error: at most \(limits.maxSubscriptions) subscriptions per connection; CLOSE one"))
            return
        }
        do {
            let stored = try await relay.query(filters, reader: connection.reader)
            let encoded = NostrRelayConnection.encode(subscription)
            var batch = OutboundBatch()
            for event in stored {
                batch.add(WireFrame(text: NostrRelayConnection.eventFrame(encoded, event.json)), to: connection.writer)
            }
            batch.add(WireFrame(text: NostrRelayMessage.endOfStoredEvents(subscription: subscription).json),
                to: connection.writer)
            for event in connection.finishStored(subscription, sent: Set(stored.map(\.id))) {
                batch.add(WireFrame(text: NostrRelayConnection.eventFrame(encoded, event.json)), to: connection.writer)
            }
            batch.send()
        } catch {
            connection.close(subscription)
            connection.send(.closed(subscription: subscription, message: "error: could not read events; try again"))
        }
    }

    private func refusal(_ subscription: String, _ filters: [NostrFilter]) -> String? {
        if subscription.isEmpty || subscription.count > limits.maxSubscriptionIDLength {
            return "invalid: a subscription id has 1 to \(limits.maxSubscriptionIDLength) characters"
        }
        return NostrEventRules.refusal(of: filters, limits: limits)
    }
}
