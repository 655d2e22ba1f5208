import AsyncHTTPClient
import Foundation
import NIOCore
import SpotterCore

/// Sends push messages to browsers through their push services
/// ([RFC 8030 §5](https://www.rfc-editor.org/rfc/rfc8030#section-5)), encrypted for the browser (RFC 8291) and
/// signed as this server (VAPID, RFC 8292).
///
/// One client serves every subscription: it keeps a VAPID token per push service origin, so it should live as
/// long as the server does. It never logs keys, tokens or payloads.
///
/// ```swift
/// let push = WebPushClient(keys: keys, httpClient: .shared)
/// switch await push.send(Data(#"{"title":"New PR!"}"#.utf8), to: subscription, urgency: .high) {
/// case .gone: try await store.remove(subscription)
/// default: break
/// }
/// ```
public struct WebPushClient: Sendable {
    /// How soon the browser should be woken for a message
    /// ([RFC 8030 §5.3](https://www.rfc-editor.org/rfc/rfc8030#section-5.3)); devices on battery may hold back
    /// anything below `high`.
    public enum Urgency: String, Sendable {
        case veryLow = "very-low"
        case low
        case normal
        case high
    }

    private let keys: VAPIDKeys
    private let httpClient: HTTPClient
    private let now: @Sendable () -> Date
    private let tokens: VAPIDTokenCache
    /// How long one request may take, connecting included, before it counts as a network failure.
    /// AsyncHTTPClient keeps retrying a refused connection until then, so this is also how long an
    /// unreachable push service holds a delivery worker.
    var requestTimeout: TimeAmount = .seconds(30)

    public init(keys: VAPIDKeys, httpClient: HTTPClient, now: @Sendable @escaping () -> Date = Date.init) {
        self.keys = keys
        self.httpClient = httpClient
        self.now = now
        self.tokens = VAPIDTokenCache(keys: keys)
    }

    /// Encrypts `payload` for `subscription` and hands it to its push service.
    ///
    /// - Parameters:
    ///   - ttl: seconds the push service may hold the message for an offline browser (RFC 8030 §5.2).
    ///   - topic: a later message with the same topic replaces this one while it waits (RFC 8030 §5.4);
    ///     at most 32 base64url characters.
    public func send(
        _ payload: Data, to subscription: WebPushSubscription, ttl: Int = 86400, urgency: Urgency = .normal,
        topic: String? = nil
    ) async -> DeliveryOutcome {
        if let topic, !Self.isValidTopic(topic) {
            return .failed(reason: "a topic is at most 32 characters of the base64url alphabet (RFC 8030 §5.4)")
        }
        let body: Data
        do {
            body = try WebPushEncryption.encrypt(payload: payload, subscription: subscription)
        } catch WebPushEncryption.Error.invalidSubscriptionKeys {
            return .gone(reason: "the subscription's keys are not valid P-256 and auth keys")
        } catch {
            return .failed(reason: "cannot encrypt the payload: \(error)")
        }
        guard let audience = subscription.audience else {
            return .gone(reason: "the subscription's endpoint is not an absolute URL")
        }
        let token: String
        do {
            token = try await tokens.token(audience: audience, now: now())
        } catch {
            return .failed(reason: "cannot sign the VAPID token: \(error)")
        }

        var request = HTTPClientRequest(url: subscription.endpoint.absoluteString)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "vapid t=\(token), k=\(keys.publicKeyBase64URL)")
        request.headers.add(name: "TTL", value: String(max(0, ttl)))
        request.headers.add(name: "Urgency", value: urgency.rawValue)
        if let topic { request.headers.add(name: "Topic", value: topic) }
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.body = .bytes(ByteBuffer(bytes: body))

        do {
            let response = try await httpClient.execute(request, timeout: requestTimeout)
            let detail = (try? await response.body.collect(upTo: 2048)).map { String(buffer: $0) } ?? ""
            return Self.outcome(
                status: Int(response.status.code), retryAfter: response.headers.first(name: "Retry-After"),
                detail: detail, now: now())
        } catch {
            return .retry(reason: "push service unreachable: \(error)", after: nil)
        }
    }

    /// RFC 8030 §5.4: push services refuse any other topic with 400, so catch it before the request.
    static func isValidTopic(_ topic: String) -> Bool {
        !topic.isEmpty && topic.count <= 32
            && topic.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            }
    }

    /// What a push service's answer means for this subscription (RFC 8030 §5, §6.2, §7).
    static func outcome(status: Int, retryAfter: String?, detail: String, now: Date) -> DeliveryOutcome {
        let said = detail.isEmpty ? "" : ": \(detail.prefix(200))"
        switch status {
        case 200, 201, 202:
            return .delivered
        case 404, 410:
            return .gone(reason: "push service answered \(status), the subscription expired or was removed\(said)")
        case 429, 500...599:
            return .retry(
                reason: "push service answered \(status)\(said)", after: RetryAfter.seconds(retryAfter, now: now))
        case 413:
            return .failed(reason: "push service answered 413, the payload is too large\(said)")
        default:
            return .failed(reason: "push service answered \(status)\(said)")
        }
    }
}
