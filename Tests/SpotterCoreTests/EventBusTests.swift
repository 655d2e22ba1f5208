import Foundation
import SpotterCore
import SpotterModels
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

    @Test("events survive a JSON round trip (they cross nodes as NOTIFY payloads)")
    func codable() throws {
        let event = DomainEvent.postCreated(.generate(), author: .generate())
        let data = try JSONEncoder().encode(event)
        #expect(data.count < 8000)
        #expect(try JSONDecoder().decode(DomainEvent.self, from: data) == event)
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
