import Foundation
import SpotterCore

/// What an APNs answer means for the delivery job: done, prune the token, try later, or give up.
///
/// APNs says why in a JSON `reason` on every failure; the status alone would confuse a dead token (400
/// `BadDeviceToken`) with a bad payload (400 `PayloadEmpty`), or an expired provider token (403, fixed by
/// signing a new one) with a revoked key (403 `InvalidProviderToken`, fixed by nobody but an operator).
/// See https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns
struct APNsResponse: Equatable {
    let status: Int
    /// APNs's `reason`, such as `BadDeviceToken`; `nil` on success.
    let reason: String?
    /// The `Retry-After` header in seconds, when there is one.
    let retryAfter: TimeInterval?

    /// Reads the status, the `Retry-After` header and the JSON body of an answer.
    init(status: Int, retryAfter: String?, body: Data) {
        self.status = status
        self.reason = (try? JSONDecoder().decode(Body.self, from: body))?.reason
        self.retryAfter = retryAfter.flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Reasons that mean the device token will never work for this app again.
    static let deadTokenReasons: Set<String> = ["BadDeviceToken", "DeviceTokenNotForTopic", "Unregistered"]

    /// APNs refused the provider token for its age: sign a new one, and send again.
    var providerTokenExpired: Bool { status == 403 && reason == "ExpiredProviderToken" }

    var outcome: DeliveryOutcome {
        let reason = self.reason ?? "HTTP \(status)"
        switch status {
        case 200:
            return .delivered
        case 410:
            return .gone(reason: reason)
        case 400 where Self.deadTokenReasons.contains(reason):
            return .gone(reason: reason)
        case 403 where providerTokenExpired:
            return .retry(reason: reason, after: nil)
        case 429, 500...599:
            return .retry(reason: reason, after: retryAfter)
        default:
            return .failed(reason: reason)
        }
    }

    private struct Body: Decodable {
        let reason: String?
    }
}
