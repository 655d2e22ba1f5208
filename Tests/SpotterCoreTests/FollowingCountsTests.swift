import Foundation
import SpotterModels
import Synchronization
import Testing

@testable import SpotterCore

/// The per-node follow counts that choose how a Following page is read: kept for their age, read again after.
@Suite("Kept follow counts")
struct FollowingCountsTests {
    /// Counts how often the store would be asked.
    final class Reads: Sendable {
        let count = Mutex(0)
        func read(_ value: Int) -> Int {
            count.withLock { $0 += 1 }
            return value
        }
    }

    @Test("a count is read once while it is young, and again once it is old")
    func keptForItsAge() async throws {
        let viewer = UserID.generate(at: Date())
        let reads = Reads()
        let young = FollowingCounts(maxAge: .seconds(60))
        #expect(try await young.count(of: viewer) { reads.read(10) } == 10)
        #expect(try await young.count(of: viewer) { reads.read(400) } == 10)
        #expect(reads.count.withLock { $0 } == 1)

        let old = FollowingCounts(maxAge: .zero)
        #expect(try await old.count(of: viewer) { reads.read(10) } == 10)
        #expect(try await old.count(of: viewer) { reads.read(400) } == 400)
        #expect(reads.count.withLock { $0 } == 3)
    }

    @Test("past its capacity it forgets, and reads again")
    func bounded() async throws {
        let reads = Reads()
        let counts = FollowingCounts(capacity: 2)
        let people = (0..<3).map { _ in UserID.generate(at: Date()) }
        for person in people { _ = try await counts.count(of: person) { reads.read(1) } }
        _ = try await counts.count(of: people[0]) { reads.read(1) }
        #expect(reads.count.withLock { $0 } == 4)
    }
}
