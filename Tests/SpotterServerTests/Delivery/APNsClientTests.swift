import Crypto
import Foundation
import NIOHTTP1
import SpotterCore
import SpotterServer
import Testing

@Suite("APNs delivery")
struct APNsClientTests {
    static let token = APNsFixture.deviceToken

    @Test("a notification arrives over HTTP/2 as sent, with a valid ES256 provider token")
    func delivers() async throws {
        try await APNsFixture.run { fixture in
            // Given a like notification for one device
            let push = APNsNotification(
                deviceToken: Self.token, title: "Ana liked your workout", body: "Leg day, 5×5", badge: 3,
                collapseID: "likes-42", threadID: "post-42", customData: ["postID": "42"])
            // When it is sent
            let outcome = await fixture.client.send(push)
            // Then APNs accepted it, over HTTP/2, with the headers and payload as sent
            #expect(outcome == .delivered)
            let request = try #require(fixture.apns.received.first)
            #expect(request.httpVersion == .http2)
            #expect(request.path == "/3/device/\(Self.token)")
            #expect(request.headers["apns-topic"] == APNsFixture.topic)
            #expect(request.headers["apns-push-type"] == "alert")
            #expect(request.headers["apns-priority"] == "10")
            #expect(request.headers["apns-collapse-id"] == "likes-42")
            #expect(request.headers["apns-expiration"] == nil)
            #expect(request.claims?.iss == APNsFixture.teamID)
            let alert = request.aps?["alert"] as? [String: Any]
            #expect(alert?["title"] as? String == "Ana liked your workout")
            #expect(alert?["body"] as? String == "Leg day, 5×5")
            #expect(request.aps?["badge"] as? Int == 3)
            #expect(request.aps?["sound"] as? String == "default")
            #expect(request.aps?["thread-id"] as? String == "post-42")
            #expect(request.payload?["postID"] as? String == "42")
        }
    }

    @Test("a background push wakes the app quietly, at priority 5, until its expiration")
    func background() async throws {
        try await APNsFixture.run { fixture in
            // Given a background push that is worthless after an hour
            let expiration = Date(timeIntervalSince1970: 1_900_000_000)
            let push = APNsNotification(
                deviceToken: Self.token, title: "", body: "", pushType: .background, expiration: expiration)
            // When it is sent
            let outcome = await fixture.client.send(push)
            // Then it carries content-available and nothing to show
            #expect(outcome == .delivered)
            let request = try #require(fixture.apns.received.first)
            #expect(request.headers["apns-push-type"] == "background")
            #expect(request.headers["apns-priority"] == "5")
            #expect(request.headers["apns-expiration"] == "1900000000")
            #expect(request.aps?["content-available"] as? Int == 1)
            #expect(request.aps?["alert"] == nil)
        }
    }

    @Test("a token APNs calls unregistered or bad comes back as gone")
    func deadTokens() async throws {
        try await APNsFixture.run { fixture in
            // Given one device whose app was uninstalled and one token APNs never issued
            let uninstalled = String(repeating: "cd", count: 32)
            let bogus = String(repeating: "ef", count: 32)
            fixture.apns.markUnregistered(uninstalled)
            fixture.apns.markBad(bogus)
            // When each is sent a notification
            let first = await fixture.client.send(.init(deviceToken: uninstalled, title: "Hi", body: "There"))
            let second = await fixture.client.send(.init(deviceToken: bogus, title: "Hi", body: "There"))
            // Then both are gone, with APNs's reason
            #expect(first == .gone(reason: "Unregistered"))
            #expect(second == .gone(reason: "BadDeviceToken"))
            #expect(fixture.apns.received.map(\.status) == [410, 400])
        }
    }

    @Test("a 503 or a 429 comes back as retry, with Retry-After when APNs gives one")
    func retries() async throws {
        try await APNsFixture.run { fixture in
            // Given APNs is unavailable once, then throttles once
            fixture.apns.answerNext(status: 503, reason: "ServiceUnavailable")
            fixture.apns.answerNext(status: 429, reason: "TooManyRequests", retryAfter: "120")
            let push = APNsNotification(deviceToken: Self.token, title: "Hi", body: "There")
            // When a notification is sent twice
            let first = await fixture.client.send(push)
            let second = await fixture.client.send(push)
            // Then both are worth retrying, the second not before two minutes
            #expect(first == .retry(reason: "ServiceUnavailable", after: nil))
            #expect(second == .retry(reason: "TooManyRequests", after: 120))
        }
    }

    @Test("the provider token is reused within the hour and replaced after 50 minutes")
    func tokenReuse() async throws {
        try await APNsFixture.run { fixture in
            let push = APNsNotification(deviceToken: Self.token, title: "Hi", body: "There")
            // Given a first send
            #expect(await fixture.client.send(push) == .delivered)
            // When another follows 49 minutes later, and another 2 minutes after that
            fixture.clock.advance(minutes: 49)
            #expect(await fixture.client.send(push) == .delivered)
            fixture.clock.advance(minutes: 2)
            #expect(await fixture.client.send(push) == .delivered)
            // Then the first two share one token, and the third has a new one, stamped 51 minutes later
            let requests = fixture.apns.received
            try #require(requests.count == 3)
            #expect(requests[0].jwt == requests[1].jwt)
            #expect(requests[2].jwt != requests[1].jwt)
            let issued = requests.compactMap { $0.claims?.iat }
            #expect(issued.count == 3)
            #expect(issued.last.map { $0 - issued[0] }.map { (3060...3061).contains($0) } == true)
        }
    }

    @Test("an ExpiredProviderToken answer makes the next send sign a new token")
    func expiredProviderToken() async throws {
        try await APNsFixture.run { fixture in
            // Given APNs calls the provider token expired once
            fixture.apns.answerNext(status: 403, reason: "ExpiredProviderToken")
            let push = APNsNotification(deviceToken: Self.token, title: "Hi", body: "There")
            // When a notification is sent, then sent again, then another follows
            let first = await fixture.client.send(push)
            let second = await fixture.client.send(push)
            let third = await fixture.client.send(push)
            // Then the first is to be retried, and the others go with a new token, signed once
            #expect(first == .retry(reason: "ExpiredProviderToken", after: nil))
            #expect(second == .delivered)
            #expect(third == .delivered)
            let jwts = fixture.apns.received.map(\.jwt)
            #expect(jwts[0] != jwts[1])
            #expect(jwts[1] == jwts[2])
        }
    }

    @Test("a provider token signed by another key is refused by the stand-in APNs")
    func foreignKey() async throws {
        // Given a client signing with a key that is not the team's, under the team's key id
        try await APNsFixture.run(signingKey: P256.Signing.PrivateKey()) { fixture in
            // When it sends
            let outcome = await fixture.client.send(.init(deviceToken: Self.token, title: "Hi", body: "There"))
            // Then APNs refuses the token for good, and never read its claims as valid
            #expect(outcome == .failed(reason: "InvalidProviderToken"))
            let request = try #require(fixture.apns.received.first)
            #expect(request.status == 403)
            #expect(request.claims == nil)
        }
    }
}
