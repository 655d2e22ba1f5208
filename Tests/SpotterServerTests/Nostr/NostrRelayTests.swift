import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterServer
import SpotterTestSupport
import Testing

/// `/relay` over a real WebSocket: NIP-11, NIP-01's messages and their order, limits, write policy, NIP-42 and
/// NIP-45, on both databases. rust-nostr's own client plays the part of a Nostr app.
@Suite("Nostr relay")
struct NostrRelayTests {
    @Test("NIP-11: the information document, its limits and CORS", arguments: StorageBackend.available)
    func information(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let response = try await api.call(.get, "/relay", headers: [.accept: "application/nostr+json"])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/nostr+json")
            #expect(response.headers[.accessControlAllowOrigin] == "*")
            let document = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            let nips = document?["supported_nips"] as? [Int] ?? []
            #expect(Set([1, 9, 11, 42, 45, 50]).isSubset(of: Set(nips)))
            let limitation = document?["limitation"] as? [String: Any] ?? [:]
            #expect(limitation["max_subscriptions"] as? Int == NostrRelayLimits().maxSubscriptions)
            #expect(limitation["max_limit"] as? Int == NostrRelayLimits().maxLimit)
            #expect(limitation["restricted_writes"] as? Bool == true)
            #expect(limitation["created_at_upper_limit"] != nil && limitation["max_message_length"] != nil)
            // Preflight, and a browser that only looks
            #expect(try await api.call(.options, "/relay").headers[.accessControlAllowOrigin] == "*")
            let plain = try await api.call(.get, "/relay")
            #expect(plain.status == .ok && String(buffer: plain.body).contains("Nostr relay"))
        }
    }

    @Test(
        "write policy: linked keys publish; an unlinked key is restricted; a bad signature is invalid",
        arguments: StorageBackend.available)
    func writePolicy(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.user("ana")
            let linked = try NostrSecretKey.generate()
            let stranger = try NostrSecretKey.generate()
            try await api.linkNostrKey(ana, linked)
            let relay = try await NostrTestClient.connect(port: port)
            let now = TestEvents.now(api)

            #expect(try await relay.publish(TestEvents.note(linked, "mine", at: now)) == (true, ""))
            let refused = try await relay.publish(TestEvents.note(stranger, "not mine", at: now))
            #expect(!refused.accepted && refused.message.hasPrefix("restricted:"))
            var forged = try TestEvents.note(linked, "forged", at: now)
            forged.content = "changed after signing"
            forged.id = NostrEvent.computeID(
                pubkey: forged.pubkey, createdAt: forged.createdAt, kind: forged.kind, tags: forged.tags,
                content: forged.content)
            let invalid = try await relay.publish(forged)
            #expect(!invalid.accepted && invalid.message.hasPrefix("invalid:"))
            var wrongID = try TestEvents.note(linked, "wrong id", at: now)
            wrongID.id = try TestEvents.note(linked, "other", at: now).id
            #expect(try await relay.publish(wrongID).message.hasPrefix("invalid:"))
            // The same event again is a duplicate, still accepted
            let again = try await relay.publish(TestEvents.note(linked, "mine", at: now))
            #expect(again.accepted)
            // Too far in the future
            let future = try await relay.publish(TestEvents.note(linked, "later", at: now + 3600))
            #expect(!future.accepted && future.message.hasPrefix("invalid:"))
            // Nothing refused was stored
            let stored = try await relay.request("all", [NostrFilter(kinds: [.textNote])]).get()
            #expect(stored.map(\.content) == ["mine"])
            await relay.close()
        }
    }

    @Test(
        "an open relay takes any valid event, but never a suspended account's key", arguments: StorageBackend.available)
    func openPolicy(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: { $0.nostr.writePolicy = .open }) { api, port in
            let bea = try await api.user("bea")
            let key = try NostrSecretKey.generate()
            try await api.linkNostrKey(bea, key)
            let relay = try await NostrTestClient.connect(port: port)
            let now = TestEvents.now(api)
            #expect(try await relay.publish(TestEvents.note(try NostrSecretKey.generate(), "anyone", at: now)).accepted)
            #expect(try await relay.publish(TestEvents.note(key, "before", at: now)).accepted)
            try await api.suspend("bea")
            let refused = try await relay.publish(TestEvents.note(key, "after", at: now))
            #expect(!refused.accepted && refused.message.hasPrefix("blocked:"))
            // What the suspended person published before is no longer served
            let served = try await relay.request("s", [NostrFilter(kinds: [.textNote])]).get()
            #expect(served.map(\.content) == ["anyone"])
            await relay.close()
        }
    }

    @Test(
        "REQ: kinds, authors, #t, since, until and limit, newest first, then EOSE, then live events",
        arguments: StorageBackend.available)
    func requestOrder(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let a = try NostrSecretKey.generate()
            let b = try NostrSecretKey.generate()
            try await api.linkNostrKey(ana, a)
            try await api.linkNostrKey(bea, b)
            let relay = try await NostrTestClient.connect(port: port)
            let base = TestEvents.now(api) - 1000
            var byContent: [String: NostrEvent] = [:]
            for (index, (key, tag)) in [(a, "run"), (b, "run"), (a, "lift"), (a, "run"), (b, "lift"), (a, "run")]
                .enumerated()
            {
                let event = try TestEvents.note(key, "e\(index)", tags: [["t", tag]], at: base + Int64(index) * 10)
                byContent[event.content] = event
                #expect(try await relay.publish(event).accepted)
            }
            // Two at one second: the lower id first
            let tieOne = try TestEvents.note(a, "tie-1", tags: [["t", "tie"]], at: base + 100)
            let tieTwo = try TestEvents.note(a, "tie-2", tags: [["t", "tie"]], at: base + 100)
            for event in [tieOne, tieTwo] { #expect(try await relay.publish(event).accepted) }

            let runsByAna = try await relay.request(
                "q1", [NostrFilter(authors: [a.publicKey], kinds: [.textNote], tags: ["t": ["run"]])]
            ).get()
            #expect(runsByAna.map(\.content) == ["e5", "e3", "e0"])
            let window = try await relay.request(
                "q2", [NostrFilter(kinds: [.textNote], since: base + 10, until: base + 40, limit: 2)]
            ).get()
            #expect(window.map(\.content) == ["e4", "e3"])
            let union = try await relay.request(
                "q3", [NostrFilter(authors: [b.publicKey]), NostrFilter(tags: ["t": ["lift"]])]
            ).get()
            #expect(union.map(\.content) == ["e4", "e2", "e1"])
            let ties = try await relay.request("q4", [NostrFilter(tags: ["t": ["tie"]])]).get()
            #expect(ties.map(\.id) == [tieOne, tieTwo].map(\.id).sorted { $0.rawValue < $1.rawValue })
            let byID = try await relay.request("q5", [NostrFilter(ids: [byContent["e2"]!.id])]).get()
            #expect(byID.map(\.content) == ["e2"])

            // After EOSE, live events that match; not those that don't
            #expect(try await relay.request("live", [NostrFilter(tags: ["t": ["run"]])]).get().count == 4)
            let other = try await NostrTestClient.connect(port: port)
            #expect(
                try await other.publish(TestEvents.note(b, "lift later", tags: [["t", "lift"]], at: base + 500))
                    .accepted)
            #expect(
                try await other.publish(TestEvents.note(b, "run later", tags: [["t", "run"]], at: base + 501)).accepted)
            #expect(try await relay.nextEvent(on: "live").content == "run later")
            #expect(
                relay.collected { if case .event("live", let e) = $0 { e.content == "lift later" } else { false } }
                    .isEmpty)
            // CLOSE ends it
            try await relay.send(.close(subscription: "live"))
            try await relay.send(.request(subscription: "marker", filters: [NostrFilter(ids: [byContent["e0"]!.id])]))
            _ = try await relay.next { $0 == .endOfStoredEvents(subscription: "marker") }
            #expect(
                try await other.publish(TestEvents.note(b, "run unseen", tags: [["t", "run"]], at: base + 502)).accepted
            )
            try await relay.send(.request(subscription: "marker2", filters: [NostrFilter(ids: [byContent["e0"]!.id])]))
            _ = try await relay.next { $0 == .endOfStoredEvents(subscription: "marker2") }
            #expect(relay.collected { if case .event("live", _) = $0 { true } else { false } }.isEmpty)
            // NIP-45
            try await relay.send(.count(subscription: "c", filters: [NostrFilter(tags: ["t": ["run"]])]))
            #expect(
                try await relay.next { if case .count = $0 { true } else { false } }
                    == .count(subscription: "c", count: 6))
            await other.close()
            await relay.close()
        }
    }

    @Test(
        "limits: subscriptions and filters per connection, subscription ids, malformed messages",
        arguments: StorageBackend.available)
    func limits(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: { $0.nostr.limits.maxSubscriptions = 2 }) { api, port in
            let relay = try await NostrTestClient.connect(port: port)
            #expect(try await relay.request("one", [NostrFilter(kinds: [1])]).get().isEmpty)
            #expect(try await relay.request("two", [NostrFilter(kinds: [1])]).get().isEmpty)
            let third = try await relay.request("three", [NostrFilter(kinds: [1])])
            #expect(throws: NostrTestClient.Closed.self) { try third.get() }
            // Replacing an open one is not a new one
            #expect(try await relay.request("two", [NostrFilter(kinds: [7])]).get().isEmpty)
            let many = Array(repeating: NostrFilter(kinds: [1]), count: NostrRelayLimits().maxFilters + 1)
            try await relay.send(.close(subscription: "one"))
            if case .failure(let closed) = try await relay.request("many", many) {
                #expect(closed.message.hasPrefix("invalid:"))
            } else {
                Issue.record("too many filters were served")
            }
            let longID = String(repeating: "x", count: 65)
            let long = try await relay.request(longID, [NostrFilter()])
            #expect(throws: NostrTestClient.Closed.self) { try long.get() }
            try await relay.sendText(#"["REQ","bad",{"kinds":"one"}]"#)
            let notice = try await relay.next { if case .notice = $0 { true } else { false } }
            guard case .notice(let text) = notice else { return }
            #expect(text.hasPrefix("invalid:"))
            // The connection still works after all of it
            #expect(try await relay.request("fine", [NostrFilter(kinds: [1])]).get().isEmpty)
            await relay.close()
        }
    }

    @Test(
        "NIP-42: AUTH with the socket's challenge; a private account's events reach only its author",
        arguments: StorageBackend.available)
    func authentication(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let cat = try await api.user("cat")
            let key = try NostrSecretKey.generate()
            try await api.linkNostrKey(cat, key)
            let publisher = try await NostrTestClient.connect(port: port)
            #expect(try await publisher.publish(TestEvents.note(key, "hidden soon", at: TestEvents.now(api))).accepted)
            let response = try await api.call(
                .patch, "/api/v1/me", token: cat, body: UpdateAccountRequest(privacy: .private))
            #expect(response.status == .ok)

            let stranger = try await NostrTestClient.connect(port: port)
            #expect(try await stranger.request("s", [NostrFilter(authors: [key.publicKey])]).get().isEmpty)

            let owner = try await NostrTestClient.connect(port: port)
            let challengeMessage = try await owner.next { if case .auth = $0 { true } else { false } }
            guard case .auth(let challenge) = challengeMessage else { return }
            let relayURL = "ws://127.0.0.1:\(port)/relay"
            let wrong = try NostrEvent.sign(
                kind: .clientAuthentication, tags: [["relay", relayURL], ["challenge", "not-it"]], content: "",
                with: key)
            try await owner.send(.auth(wrong))
            let refused = try await owner.next { if case .ok(wrong.id, _, _) = $0 { true } else { false } }
            #expect(refused == .ok(wrong.id, accepted: false, message: refused.okMessage))
            #expect(refused.okMessage.hasPrefix("invalid:"))
            let right = try NostrEvent.sign(
                kind: .clientAuthentication, tags: [["relay", relayURL], ["challenge", challenge]], content: "",
                with: key)
            try await owner.send(.auth(right))
            #expect(
                try await owner.next { if case .ok(right.id, _, _) = $0 { true } else { false } }
                    == .ok(right.id, accepted: true, message: ""))
            #expect(
                try await owner.request("mine", [NostrFilter(authors: [key.publicKey])]).get().map(\.content)
                    == ["hidden soon"])
            for client in [publisher, stranger, owner] { await client.close() }
        }
    }

    @Test(
        "live, as stored: a followers-only account's events reach no other key, a public account's do",
        arguments: StorageBackend.available)
    func followersOnlyLive(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            // Given Dot, followers-only, and Eli, public, each with a linked key
            let dot = try await api.user("dot")
            let eli = try await api.user("eli")
            let dotKey = try NostrSecretKey.generate()
            let eliKey = try NostrSecretKey.generate()
            try await api.linkNostrKey(dot, dotKey)
            try await api.linkNostrKey(eli, eliKey)
            let response = try await api.call(
                .patch, "/api/v1/me", token: dot, body: UpdateAccountRequest(privacy: .followers))
            #expect(response.status == .ok)
            // And a stranger listening for both
            let stranger = try await NostrTestClient.connect(port: port)
            #expect(
                try await stranger.request("live", [NostrFilter(authors: [dotKey.publicKey, eliKey.publicKey])]).get()
                    .isEmpty)

            // When Dot publishes, then Eli
            let publisher = try await NostrTestClient.connect(port: port)
            #expect(
                try await publisher.publish(TestEvents.note(dotKey, "for followers", at: TestEvents.now(api))).accepted)
            #expect(try await publisher.publish(TestEvents.note(eliKey, "for all", at: TestEvents.now(api))).accepted)

            // Then the stranger gets Eli's live and never Dot's, which a fresh REQ does not show either
            #expect(try await stranger.nextEvent(on: "live").content == "for all")
            let dotsLive = stranger.collected { message in
                if case .event(_, let event) = message { event.pubkey == dotKey.publicKey } else { false }
            }
            #expect(dotsLive.isEmpty)
            #expect(
                try await stranger.request("stored", [NostrFilter(authors: [dotKey.publicKey])]).get().isEmpty)
            for client in [publisher, stranger] { await client.close() }
        }
    }
}

extension NostrRelayMessage {
    var okMessage: String {
        if case .ok(_, _, let message) = self { return message }
        return ""
    }
}
