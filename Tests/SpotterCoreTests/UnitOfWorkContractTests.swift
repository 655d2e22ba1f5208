import Foundation
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Synchronization
import Testing

/// `SpotterStorage.write`: one transaction across stores, on every adapter.
@Suite("Unit of work contract")
struct UnitOfWorkContractTests {
    static func account(_ name: String, email: String? = nil) -> AccountRecord {
        StorageContractTests.account(name, email: email)
    }

    static func note(by author: UserID, _ text: String) -> PostRecord {
        PostRecord(
            id: .generate(), authorID: author, kind: .note, text: text, visibility: .public, workout: nil, records: [],
            hashtags: [], mentions: [], textHash: text, inGlobal: false, performedAt: StorageContractTests.start,
            createdAt: StorageContractTests.start)
    }

    struct Rollback: Error {}

    @Test(
        "a unit's writes across stores are seen inside it and commit together; its events leave after the commit",
        arguments: StorageBackend.available)
    func commits(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given an event bus
            let bus = RecordingBus()
            let ana = Self.account("ana")
            let post = Self.note(by: ana.id, "Tempo run")
            // When a unit makes an account and its post, and announces the post
            try await storage.write {
                try await storage.accounts.create(ana)
                try await storage.posts.insert(post)
                await bus.publish(.postCreated(post.id, author: ana.id))
                // Then inside it, its own rows are there and its event waits
                #expect(try await storage.posts.record(post.id)?.authorID == ana.id)
                #expect(bus.published.isEmpty)
            }
            // And after the commit both are stored and the event is out
            #expect(try await storage.accounts.find(id: ana.id) == ana)
            #expect(try await storage.posts.record(post.id) != nil)
            #expect(bus.published == [.postCreated(post.id, author: ana.id)])
        }
    }

    @Test("a unit that throws leaves nothing behind and publishes nothing", arguments: StorageBackend.available)
    func rollsBack(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let bus = RecordingBus()
            let ana = Self.account("ana")
            let post = Self.note(by: ana.id, "Tempo run")
            // When a unit writes to two stores, publishes, then fails
            await #expect(throws: Rollback.self) {
                try await storage.write {
                    try await storage.accounts.create(ana)
                    try await storage.posts.insert(post)
                    await bus.publish(.postCreated(post.id, author: ana.id))
                    throw Rollback()
                }
            }
            // Then none of it exists, and nobody heard of it
            let account = try await storage.accounts.find(id: ana.id)
            let record = try await storage.posts.record(post.id)
            #expect(account == nil)
            #expect(record == nil)
            #expect(bus.published.isEmpty)
        }
    }

    @Test(
        "a write nested in a unit that throws undoes only its own writes and events",
        arguments: StorageBackend.available)
    func savepoint(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let bus = RecordingBus()
            let ana = Self.account("ana")
            let bea = Self.account("bea")
            try await storage.write {
                try await storage.accounts.create(ana)
                await bus.publish(.notificationCountsChanged(ana.id))
                // A nested write fails on a unique username, after a write of its own
                await #expect(throws: StorageError.self) {
                    try await storage.write {
                        try await storage.accounts.create(bea)
                        await bus.publish(.notificationCountsChanged(bea.id))
                        try await storage.accounts.create(Self.account("ANA", email: "other@example.com"))
                    }
                }
                // The unit goes on, on both databases (PostgreSQL aborts a transaction at its first error)
                try await storage.posts.insert(Self.note(by: ana.id, "Intervals"))
            }
            #expect(try await storage.accounts.find(id: ana.id) == ana)
            #expect(try await storage.accounts.find(id: bea.id) == nil)
            #expect(try await storage.posts.countPosts(by: ana.id, since: .distantPast) == 1)
            #expect(bus.published == [.notificationCountsChanged(ana.id)])
        }
    }

    @Test(
        "writes outside a unit never join it, child tasks do, and concurrent units each commit whole",
        arguments: StorageBackend.available)
    func isolation(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given a unit that is open while an ordinary write runs beside it
            let ana = Self.account("ana")
            let bea = Self.account("bea")
            let (opened, open) = AsyncStream.makeStream(of: Void.self)
            async let outsider: Void = {
                for await _ in opened { break }
                try await storage.accounts.create(bea)  // not part of the unit below
            }()
            await #expect(throws: Rollback.self) {
                try await storage.write {
                    try await storage.accounts.create(ana)
                    open.yield()
                    // Child tasks inherit the unit while it is open
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { try await storage.posts.insert(Self.note(by: ana.id, "In the unit")) }
                        try await group.waitForAll()
                    }
                    throw Rollback()
                }
            }
            try await outsider
            // Then the unit's writes are gone, and the outsider's stayed
            #expect(try await storage.accounts.find(id: ana.id) == nil)
            #expect(try await storage.posts.countPosts(by: ana.id, since: .distantPast) == 0)
            #expect(try await storage.accounts.find(id: bea.id) == bea)
            // And many units at once each commit whole
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await storage.write {
                            try await storage.posts.insert(Self.note(by: bea.id, "Set \(index)"))
                            try await storage.posts.insert(Self.note(by: bea.id, "Set \(index) again"))
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await storage.posts.countPosts(by: bea.id, since: .distantPast) == 16)
        }
    }
}

/// An event bus that records what it publishes, holding events for a unit's commit as every bus does.
final class RecordingBus: EventBus, Sendable {
    private let events = Mutex<[DomainEvent]>([])

    var published: [DomainEvent] { events.withLock { $0 } }

    func publish(_ event: DomainEvent) async {
        if heldForCommit(event) { return }
        events.withLock { $0.append(event) }
    }

    func subscribe() -> AsyncStream<DomainEvent> { AsyncStream { $0.finish() } }
}
