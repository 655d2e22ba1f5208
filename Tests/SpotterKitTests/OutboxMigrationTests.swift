import Foundation
import GRDB
import SpotterModels
import Testing

@testable import SpotterKit

/// An outbox an earlier version left on a device opens in this one, its actions kept.
@Suite("Outbox migration")
struct OutboxMigrationTests {
    @Test("actions an earlier version gave up on for want of a network or a server wait again; refusals stay failed")
    func givenUpActionsWaitAgain() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("outbox.sqlite").path
        // Given the file of the version before issue 24: three actions it gave up on after three failed tries,
        // and one the server refused
        let post = PostID(rawValue: UUIDv7.make())
        let earlier = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(earlier, upTo: "posts revision")
        let rows: [(Action, attempts: Int, failure: String)] = [
            (.follow("ana"), 3, "no response from the server: Could not connect to the server."),
            (.follow("bea"), 3, "503 Service Unavailable: The database is busy."),
            (.createPost(CreatePostRequest(kind: .note, text: "Sixth")), 3, "429 Too Many Requests: New accounts…"),
            (.comment(post, CreateCommentRequest(text: "Hi")), 0, "Post not found."),
        ]
        try await earlier.write { db in
            for (action, attempts, failure) in rows {
                try db.execute(
                    sql: """
                        INSERT INTO actions (entity, action, idempotency_key, attempts, failure, created_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        action.entity, String(decoding: try WireJSON.encoder().encode(action), as: UTF8.self),
                        UUID().uuidString, attempts, failure, 1_780_000_000,
                    ])
            }
        }
        try earlier.close()

        // When this version opens it
        let queue = try ActionQueue(path: path, client: SpotterClient(baseURL: URL(string: "http://127.0.0.1:9")!))

        // Then what was given up on waits again, due now, saying why; the refusal still waits for the user
        let pending = try await queue.pending
        #expect(pending.map(\.action) == rows.prefix(3).map(\.0))
        #expect(pending.map(\.retry?.reason) == [.network, .server, .refusedForNow])
        #expect(pending.allSatisfy { $0.failure == nil && $0.retry!.nextAttempt <= Date() })
        #expect(try await queue.failed.map(\.failure) == ["Post not found."])
    }
}
