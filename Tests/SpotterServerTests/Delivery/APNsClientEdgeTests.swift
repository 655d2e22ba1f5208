import Foundation
import SpotterCore
import Testing

@testable import SpotterServer

@Suite("APNs delivery, edge cases")
struct APNsClientEdgeTests {
    @Test("a network failure comes back as retry")
    func unreachable() async throws {
        try await APNsFixture.run { fixture in
            // Given a client pointed at a port nothing listens on
            var configuration = fixture.configuration
            configuration.baseURL = "https://localhost:1"
            let client = try APNsClient(configuration: configuration, httpClient: fixture.httpClient)
            // When it sends
            let outcome = await client.send(.init(deviceToken: APNsFixture.deviceToken, title: "Hi", body: "There"))
            // Then the attempt is worth repeating later
            guard case .retry(_, nil) = outcome else {
                Issue.record("expected a retry, got \(outcome)")
                return
            }
        }
    }

    @Test("a collapse id over 64 bytes or a token that isn't hex is refused without asking APNs")
    func refusedLocally() async throws {
        try await APNsFixture.run { fixture in
            // Given a notification with a 65-byte collapse id, and one for a token with a path in it
            let longCollapse = APNsNotification(
                deviceToken: APNsFixture.deviceToken, title: "Hi", body: "There",
                collapseID: String(repeating: "x", count: 65))
            let pathToken = APNsNotification(deviceToken: "ab/../../admin", title: "Hi", body: "There")
            // When they are sent
            let first = await fixture.client.send(longCollapse)
            let second = await fixture.client.send(pathToken)
            // Then neither reaches APNs
            #expect(first == .failed(reason: "The collapse id is longer than 64 bytes."))
            #expect(second == .gone(reason: "BadDeviceToken"))
            #expect(fixture.apns.received.isEmpty)
        }
    }

    @Test(
        "each APNs answer maps to what the delivery job should do",
        arguments: [
            (200, "", DeliveryOutcome.delivered),
            (410, #"{"reason":"Unregistered","timestamp":1}"#, .gone(reason: "Unregistered")),
            (400, #"{"reason":"DeviceTokenNotForTopic"}"#, .gone(reason: "DeviceTokenNotForTopic")),
            (400, #"{"reason":"PayloadEmpty"}"#, .failed(reason: "PayloadEmpty")),
            (403, #"{"reason":"InvalidProviderToken"}"#, .failed(reason: "InvalidProviderToken")),
            (403, #"{"reason":"ExpiredProviderToken"}"#, .retry(reason: "ExpiredProviderToken", after: nil)),
            (500, #"{"reason":"InternalServerError"}"#, .retry(reason: "InternalServerError", after: nil)),
            (502, "<html>bad gateway</html>", .retry(reason: "HTTP 502", after: nil)),
        ])
    func mapping(status: Int, body: String, expected: DeliveryOutcome) {
        // Given an answer from APNs; When it is read; Then it says what to do next
        #expect(APNsResponse(status: status, retryAfter: nil, body: Data(body.utf8)).outcome == expected)
    }
}
