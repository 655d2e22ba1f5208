import Foundation
import Synchronization

/// The open unit of work of the current task: what it holds back until its commit.
///
/// `SpotterStorage.write` makes one; each adapter keeps its own transaction beside it (a PostgreSQL
/// connection, SQLite's writer) and routes every store call made inside the unit there. Both reach the
/// stores through task-local values rather than a `tx` argument because the unit must also hold code that
/// does not know it runs in one: the idempotency middleware wraps route handlers it knows nothing about, and
/// the services they call keep using `storage.posts`, `storage.notifications`, and so on.
///
/// Task-local values are inherited by `Task {}` children, which may outlive the unit. So a unit knows when it
/// is closed, and a closed unit routes nothing and holds nothing: work after the commit goes to the database
/// on its own, as it would outside any unit.
public final class UnitOfWork: Sendable {
    @TaskLocal public static var current: UnitOfWork?

    private struct State {
        var isOpen = true
        var held: [(bus: any EventBus, event: DomainEvent)] = []
    }

    private let state = Mutex(State())

    init() {}

    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Keeps `event` until the unit commits; `false` when the unit is closed and the bus should publish now.
    func hold(_ event: DomainEvent, for bus: any EventBus) -> Bool {
        state.withLock { state in
            guard state.isOpen else { return false }
            state.held.append((bus, event))
            return true
        }
    }

    /// Closes the unit and hands over what it held.
    private func close() -> [(bus: any EventBus, event: DomainEvent)] {
        state.withLock { state in
            state.isOpen = false
            defer { state.held = [] }
            return state.held
        }
    }

    /// Runs `body` as a new unit inside `transaction`, an adapter's transaction that commits when it returns.
    /// Events published inside leave after the commit, in order; a unit that throws publishes nothing.
    public static func run<T: Sendable>(
        in transaction: (() async throws -> T) async throws -> T, _ body: () async throws -> T
    ) async throws -> T {
        let unit = UnitOfWork()
        let result: T
        do {
            result = try await withoutActuallyEscaping(body) { body in
                try await $current.withValue(unit) { try await transaction(body) }
            }
        } catch let failure as FailureAfterCommit {
            for (bus, event) in unit.close() { await bus.publish(event) }
            throw failure.error
        } catch {
            _ = unit.close()
            throw error
        }
        for (bus, event) in unit.close() { await bus.publish(event) }
        return result
    }

    /// Runs `body` inside `savepoint`, an adapter's savepoint within the current unit: events published by a
    /// body that throws are dropped with its writes.
    public static func nested<T: Sendable>(
        in savepoint: (() async throws -> T) async throws -> T, _ body: () async throws -> T
    ) async throws -> T {
        let mark = current?.state.withLock { $0.held.count }
        do {
            return try await withoutActuallyEscaping(body) { body in try await savepoint(body) }
        } catch let failure as FailureAfterCommit {
            throw failure
        } catch {
            guard let unit = current, let mark else { throw error }
            unit.state.withLock { state in
                if state.held.count > mark { state.held.removeSubrange(mark...) }
            }
            throw error
        }
    }
}

/// An error that ends a unit of work *after* committing its writes: for a refusal that must leave a record
/// (a refresh token used twice revokes its whole login, and the revocation must stand while the request
/// fails). Thrown inside a unit, its savepoints keep their writes, the unit commits and publishes its events,
/// and `error` reaches the caller.
public struct FailureAfterCommit: Error {
    public let error: any Error

    public init(_ error: any Error) {
        self.error = error
    }
}

extension SpotterStorage {
    /// Runs `body` as a unit (a savepoint inside the request's) whose writes stand even when it throws: its
    /// error leaves through `FailureAfterCommit`, so the request's unit commits them and then fails with it.
    /// For a refusal that must leave its record: a one-time challenge spent by a wrong answer, an upload marked
    /// failed, a login revoked for a reused refresh token.
    public func keepingWrites<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await write {
            do {
                return try await body()
            } catch let failure as FailureAfterCommit {
                throw failure
            } catch {
                throw FailureAfterCommit(error)
            }
        }
    }
}

extension EventBus {
    /// Whether the current unit of work keeps `event` for after its commit. Every bus asks this first in
    /// `publish`: nobody may hear of a change that could still roll back.
    public func heldForCommit(_ event: DomainEvent) -> Bool {
        UnitOfWork.current?.hold(event, for: self) ?? false
    }
}
