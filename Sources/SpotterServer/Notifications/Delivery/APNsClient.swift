import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SpotterCore

/// Sends push notifications to Apple devices through APNs's HTTP/2 provider API, with token-based auth.
///
/// One client serves the whole server: it keeps one provider token for every send (see `APNsProviderTokens`),
/// and the `HTTPClient` keeps the HTTP/2 connection to APNs open, as Apple asks, multiplexing sends over it.
/// The `HTTPClient` must be allowed HTTP/2 (its default `httpVersion: .automatic` is), since APNs speaks
/// nothing else; tests pass one that trusts their local server's certificate.
///
/// `send` never throws: every answer, and every failure to get one, becomes a `DeliveryOutcome` for the
/// delivery job to act on. Neither the provider token nor the key is ever logged or put in an outcome.
///
/// ```swift
/// let apns = try APNsClient(configuration: configuration, httpClient: .shared)
/// switch await apns.send(APNsNotification(deviceToken: token, title: "New follower", body: "Ana follows you")) {
/// case .gone: try await devices.remove(token)
/// default: break
/// }
/// ```
/// See https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
public struct APNsClient: Sendable {
    /// The longest `apns-collapse-id` APNs accepts, in bytes.
    public static let maximumCollapseIDBytes = 64

    private let configuration: APNsConfiguration
    private let httpClient: HTTPClient
    private let tokens: APNsProviderTokens

    /// - Parameter now: the clock provider tokens are stamped and aged with; tests move it.
    /// - Throws: when `configuration.privateKeyPEM` is not a P-256 private key.
    public init(
        configuration: APNsConfiguration, httpClient: HTTPClient, now: @escaping @Sendable () -> Date = Date.init
    ) throws {
        self.configuration = configuration
        self.httpClient = httpClient
        self.tokens = try APNsProviderTokens(configuration: configuration, now: now)
    }

    /// Hands one notification to APNs and says what came of it.
    public func send(_ notification: APNsNotification) async -> DeliveryOutcome {
        guard Self.isDeviceToken(notification.deviceToken) else { return .gone(reason: "BadDeviceToken") }
        if let collapseID = notification.collapseID, collapseID.utf8.count > Self.maximumCollapseIDBytes {
            return .failed(reason: "The collapse id is longer than \(Self.maximumCollapseIDBytes) bytes.")
        }
        let token: APNsProviderTokens.Token
        let request: HTTPClientRequest
        do {
            token = try await tokens.token()
            request = try self.request(for: notification, jwt: token.jwt)
        } catch {
            return .failed(reason: "The notification could not be signed or encoded.")
        }
        let answer: APNsResponse
        do {
            let response = try await httpClient.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 * 1024)
            answer = APNsResponse(
                status: Int(response.status.code), retryAfter: response.headers.first(name: "retry-after"),
                body: Data(body.readableBytesView))
        } catch {
            return .retry(reason: "APNs could not be reached: \(error)", after: nil)
        }
        if answer.providerTokenExpired { tokens.retire(generation: token.generation) }
        return answer.outcome
    }

    private func request(for notification: APNsNotification, jwt: String) throws -> HTTPClientRequest {
        let base =
            configuration.baseURL.hasSuffix("/") ? String(configuration.baseURL.dropLast()) : configuration.baseURL
        var request = HTTPClientRequest(url: "\(base)/3/device/\(notification.deviceToken)")
        request.method = .POST
        var headers = HTTPHeaders()
        headers.add(name: "authorization", value: "bearer \(jwt)")
        headers.add(name: "apns-topic", value: configuration.topic)
        headers.add(name: "apns-push-type", value: notification.pushType.rawValue)
        headers.add(name: "apns-priority", value: String(notification.priority.rawValue))
        if let collapseID = notification.collapseID { headers.add(name: "apns-collapse-id", value: collapseID) }
        if let expiration = notification.expiration {
            headers.add(name: "apns-expiration", value: String(Int(expiration.timeIntervalSince1970)))
        }
        headers.add(name: "content-type", value: "application/json")
        request.headers = headers
        request.body = .bytes(ByteBuffer(bytes: try APNsPayload.json(for: notification)))
        return request
    }

    /// Whether a device token can be put in the request path: hex only, so nothing in it can change the URL.
    static func isDeviceToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= 200 && token.allSatisfy { $0.isASCII && $0.isHexDigit }
    }
}
