import Foundation
import SpotterCore
import SpotterModels
import SpotterPostgres
import SpotterTestSupport
import Testing

@Suite("Domain events")
struct EventBusTests {
    @Test("every subscriber hears every event, in order; a finished subscription stops")
    func inProcess() async throws {
        let bus = InProcessEventBus()
        let first = bus.subscribe()
        let second = bus.subscribe()
        let ids = (0..<3).map { _ in PostID.generate() }
        for id in ids { await bus.publish(.kudosChanged(id)) }
        var a = first.makeAsyncIterator()
        var b = second.makeAsyncIterator()
        for id in ids {
            #expect(await a.next() == .kudosChanged(id))
            #expect(await b.next() == .kudosChanged(id))
        }
    }

    @Test(
        "on PostgreSQL the listener has a connection of its own: with one for queries, both events and queries go through",
        .enabled(if: StorageBackend.postgresURL != nil))
    func listenerConnectionComesOnTop() async throws {
        try await StorageBackend.withPostgres(queryConnections: 1) { storage in
            let bus = PostgresEventBus(
                client: storage.client, channel: storage.eventChannel, logger: StorageBackend.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await bus.run() }
                defer { group.cancelAll() }
                // Published until heard, since the listener starts in its own time. Had the listener taken the
                // only connection, publishing (a query) would wait for ever: each try has a deadline, and its
                // own subscription (cancelling a try ends the subscription it was reading).
                var heard = false
                for _ in 0..<20 where !heard {
                    let event = DomainEvent.kudosChanged(.generate())
                    let events = bus.subscribe()
                    heard =
                        try await Self.within(.milliseconds(500)) {
                            await bus.publish(event)
                            for await received in events where received == event { return true }
                            return false
                        } ?? false
                }
                #expect(heard)
                #expect(try await Self.within(.seconds(5)) { try await storage.ping() } != nil)
            }
        }
    }

    /// `body`'s result, or `nil` if it takes longer than `limit` (it is then cancelled).
    private static func within<T: Sendable>(
        _ limit: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    @Test("events survive a JSON round trip (they cross nodes as NOTIFY payloads)")
    func codable() throws {
        // A person with 100 logins revoked at once still fits PostgreSQL's NOTIFY limit.
        let manyLogins = RevokedLogins.logins(Set((0..<100).map { _ in UUID() }))
        for event in [
            DomainEvent.postCreated(.generate(), author: .generate()),
            .loginsRevoked(.generate(), manyLogins), .loginsRevoked(.generate(), .all),
            .relationshipChanged(.generate(), .generate()),
        ] {
            let data = try JSONEncoder().encode(event)
            #expect(data.count < 8000)
            #expect(try JSONDecoder().decode(DomainEvent.self, from: data) == event)
        }
    }

    @Test("posting, editing, kudos, comments and deleting each publish their event")
    func servicePublishes() async throws {
        try await StorageBackend.sqlite.withStorage { storage in
            let bus = InProcessEventBus()
            let events = bus.subscribe()
            let clock = ManualClock(Date())
            let service = PostService(storage: storage, clock: clock, events: bus)
            var accounts: [AccountRecord] = []
            for name in ["ana", "bea"] {
                let account = AccountRecord(
                    id: .generate(), username: name, email: nil, passwordHash: nil, displayName: name,
                    appleSubject: nil, createdAt: clock.now - 86_400 * 30)
                try await storage.accounts.create(account)
                accounts.append(account)
            }
            let post = try await service.create(CreatePostRequest(kind: .note, text: "hello #gym"), author: accounts[0])
            _ = try await service.update(post.id, with: UpdatePostRequest(text: "hi #gym"), viewer: accounts[0])
            _ = try await service.setKudos(post.id, on: true, viewer: accounts[1])
            _ = try await service.setKudos(post.id, on: true, viewer: accounts[1])  // no change, no event
            let comment = try await service.comment(
                on: post.id, CreateCommentRequest(text: "nice"), viewer: accounts[1])
            try await service.deleteComment(comment.id, on: post.id, viewer: accounts[1])
            try await service.delete(post.id, viewer: accounts[0])
            var iterator = events.makeAsyncIterator()
            var heard: [DomainEvent] = []
            for _ in 0..<6 { if let event = await iterator.next() { heard.append(event) } }
            #expect(
                heard == [
                    .postCreated(post.id, author: accounts[0].id), .postUpdated(post.id, author: accounts[0].id),
                    .kudosChanged(post.id), .commentsChanged(post.id), .commentsChanged(post.id),
                    .postDeleted(post.id, author: accounts[0].id),
                ])
        }
    }
}
