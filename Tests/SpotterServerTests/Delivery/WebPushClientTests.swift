import AsyncHTTPClient
import Foundation
import SpotterCore
import Testing

@testable import SpotterServer

@Suite("Web Push client against a local push service")
struct WebPushClientTests {
    let keys = try! VAPIDKeys.generate(subject: "mailto:ops@spotter.test")

    @Test("the payload the client sends is the plaintext the push service decrypts")
    func delivers() async throws {
        // Given a push service holding a subscription made with our VAPID key
        let service = LocalPushService(applicationServerKey: keys.publicKeyBase64URL)
        try await service.run { baseURL in
            let client = WebPushClient(keys: keys, httpClient: .shared)
            let payload = Data(#"{"title":"Sam liked your squat PR","url":"/posts/42"}"#.utf8)

            // When the client sends a message to it
            let outcome = await client.send(payload, to: service.browser.subscription(endpoint: "\(baseURL)/push/a"))

            // Then it is delivered and the service read exactly the payload
            #expect(outcome == .delivered)
            #expect(await service.inbox.messages.map(\.plaintext) == [payload])
        }
    }

    @Test("TTL, Urgency and Topic reach the push service as sent")
    func headers() async throws {
        // Given a push service
        let service = LocalPushService(applicationServerKey: keys.publicKeyBase64URL)
        try await service.run { baseURL in
            let client = WebPushClient(keys: keys, httpClient: .shared)
            let subscription = service.browser.subscription(endpoint: "\(baseURL)/push/a")

            // When one message is sent with options and one with the defaults
            _ = await client.send(Data("1".utf8), to: subscription, ttl: 600, urgency: .high, topic: "streak")
            _ = await client.send(Data("2".utf8), to: subscription)

            // Then the service saw each one's headers
            let messages = await service.inbox.messages
            #expect(messages.map(\.ttl) == [600, 86400])
            #expect(messages.map(\.urgency) == ["high", "normal"])
            #expect(messages.map(\.topic) == ["streak", nil])
        }
    }

    @Test(
        "an endpoint the push service says is gone (410) or unknown (404) comes back as gone",
        arguments: ["gone", "unknown"])
    func gone(endpoint: String) async throws {
        // Given a push service that no longer knows the subscription
        let service = LocalPushService(applicationServerKey: keys.publicKeyBase64URL)
        try await service.run { baseURL in
            let client = WebPushClient(keys: keys, httpClient: .shared)

            // When a message is sent to it
            let outcome = await client.send(
                Data("hi".utf8), to: service.browser.subscription(endpoint: "\(baseURL)/push/\(endpoint)"))

            // Then the subscription is to be pruned
            guard case .gone = outcome else { Issue.record("expected gone, got \(outcome)"); return }
        }
    }

    @Test("a push service answering 503 asks for a retry after the time it gave")
    func unavailable() async throws {
        // Given a push service that is overloaded
        let service = LocalPushService(applicationServerKey: keys.publicKeyBase64URL)
        try await service.run { baseURL in
            let client = WebPushClient(keys: keys, httpClient: .shared)

            // When a message is sent
            let outcome = await client.send(
                Data("hi".utf8), to: service.browser.subscription(endpoint: "\(baseURL)/push/busy"))

            // Then it is to be retried after its Retry-After
            guard case .retry(_, let after) = outcome else { Issue.record("expected retry, got \(outcome)"); return }
            #expect(after == 120)
        }
    }

    @Test("a VAPID key the subscription was not made with is refused by the push service")
    func foreignKey() async throws {
        // Given a push service whose subscription was made with our key, and a client with another key
        let service = LocalPushService(applicationServerKey: keys.publicKeyBase64URL)
        try await service.run { baseURL in
            let impostor = WebPushClient(
                keys: try VAPIDKeys.generate(subject: "mailto:x@evil.test"), httpClient: .shared)

            // When that client sends
            let outcome = await impostor.send(
                Data("hi".utf8), to: service.browser.subscription(endpoint: "\(baseURL)/push/a"))

            // Then the service refuses it with 403, nothing is delivered and the client does not retry
            guard case .failed = outcome else { Issue.record("expected failed, got \(outcome)"); return }
            #expect(await service.inbox.refusals == [.forbidden])
            #expect(await service.inbox.messages.isEmpty)
        }
    }

    @Test("a token signed by another key than the one it names is refused by the push service")
    func tamperedToken() async throws {
        // Given a push service, and a VAPID token signed by a key other than ours
        let service = LocalPushService(applicationServerKey: keys.publicKeyBase64URL)
        try await service.run { baseURL in
            let forger = VAPIDTokenCache(keys: try VAPIDKeys.generate(subject: "mailto:x@evil.test"))
            let token = try await forger.token(audience: baseURL, now: Date())
            let body = try WebPushEncryption.encrypt(
                payload: Data("hi".utf8), subscription: service.browser.subscription(endpoint: baseURL))

            // When a request carries that token beside our public key
            var request = HTTPClientRequest(url: "\(baseURL)/push/a")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "vapid t=\(token), k=\(keys.publicKeyBase64URL)")
            request.headers.add(name: "TTL", value: "60")
            request.headers.add(name: "Content-Encoding", value: "aes128gcm")
            request.body = .bytes(body)
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))

            // Then the signature check fails and nothing is delivered
            #expect(response.status == .unauthorized)
            #expect(await service.inbox.messages.isEmpty)
        }
    }

    @Test("a push service that cannot be reached asks for a retry")
    func unreachable() async {
        // Given an endpoint nothing listens on, and a client that gives up on it after a second
        var client = WebPushClient(keys: keys, httpClient: .shared)
        client.requestTimeout = .seconds(1)
        let subscription = WebPushBrowser().subscription(endpoint: "http://127.0.0.1:1/push/a")

        // When a message is sent
        let outcome = await client.send(Data("hi".utf8), to: subscription)

        // Then it is to be retried
        guard case .retry = outcome else { Issue.record("expected retry, got \(outcome)"); return }
    }

    @Test("a VAPID token is reused for a push service and renewed well before it expires")
    func tokenRenewal() async throws {
        // Given a token cache and a start time
        let cache = VAPIDTokenCache(keys: keys)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try await cache.token(audience: "https://push.example.net", now: start)

        // When tokens are asked for 5 hours later, 7 hours later, and for another service
        let later = try await cache.token(audience: "https://push.example.net", now: start + 5 * 3600)
        let renewed = try await cache.token(audience: "https://push.example.net", now: start + 7 * 3600)
        let other = try await cache.token(audience: "https://other.example.net", now: start + 5 * 3600)

        // Then the first is reused while more than half its 12 hours remain, then replaced; each service has its own
        #expect(later == first)
        #expect(renewed != first)
        #expect(other != first)
    }
}
