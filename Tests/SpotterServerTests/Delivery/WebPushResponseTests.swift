import Foundation
import SpotterCore
import Testing

@testable import SpotterServer

@Suite("Web Push responses and addresses")
struct WebPushResponseTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(
        "each push service status becomes the outcome RFC 8030 gives it",
        arguments: [
            (201, "delivered"), (202, "delivered"), (200, "delivered"), (404, "gone"), (410, "gone"),
            (429, "retry"), (500, "retry"), (502, "retry"), (413, "failed"), (400, "failed"), (401, "failed"),
            (403, "failed"),
        ])
    func statuses(status: Int, expected: String) {
        // Given a status / When it is read / Then its outcome has the expected kind
        let outcome = WebPushClient.outcome(status: status, retryAfter: nil, detail: "", now: Self.now)
        let kind =
            switch outcome {
            case .delivered: "delivered"
            case .gone: "gone"
            case .retry: "retry"
            case .failed: "failed"
            }
        #expect(kind == expected)
    }

    @Test("Retry-After is read as seconds or as an HTTP date, and ignored when it is neither")
    func retryAfter() {
        // Given the three forms / When read / Then seconds from now, or nothing
        #expect(RetryAfter.seconds("120", now: Self.now) == 120)
        #expect(RetryAfter.seconds("Fri, 15 Jan 2027 08:00:30 GMT", now: Self.now) == 30)
        #expect(RetryAfter.seconds("soon", now: Self.now) == nil)
    }

    @Test("a VAPID audience is the endpoint's origin, without the scheme's default port")
    func audience() {
        func audience(_ endpoint: String) -> String? {
            WebPushSubscription(endpoint: URL(string: endpoint)!, p256dh: "", auth: "").audience
        }
        #expect(audience("https://fcm.googleapis.com/fcm/send/abc") == "https://fcm.googleapis.com")
        #expect(audience("https://Push.Example:443/x") == "https://push.example")
        #expect(audience("http://127.0.0.1:8080/push/a") == "http://127.0.0.1:8080")
    }

    @Test("a topic outside RFC 8030's 32 base64url characters is refused before anything is sent")
    func topic() {
        #expect(WebPushClient.isValidTopic("streak-2025_w1"))
        #expect(!WebPushClient.isValidTopic("has space"))
        #expect(!WebPushClient.isValidTopic(String(repeating: "a", count: 33)))
    }
}
