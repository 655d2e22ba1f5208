import Foundation
import Logging
import SpotterCore
import SpotterModels
import Synchronization

/// Who is in the app, for every node's delivery runner (issue 40, item 4; FameFit's "don't push while the user
/// is active in the app"): a person with a live socket sees their notifications arrive on it (`user:<id>`), so
/// a push would only repeat them. SpotterKit closes its socket when the app goes to the background, so a live
/// socket is an app in front.
///
/// The hub tells this node's presence of each person's first socket and last one closing, synchronously and in
/// order; `flush` writes what changed (`PushAddressStore.markInApp`, `leftApp`) a moment later, one write for a
/// burst of joins, and `refresh` vouches for everyone still connected every `refreshInterval`, each mark good
/// for `vouchedFor`. A node that dies stops vouching, and its people count as gone within `vouchedFor`.
final class InAppPresence: Sendable {
    static let refreshInterval = Duration.seconds(30)
    static let vouchedFor: TimeInterval = 90

    private let storage: any SpotterStorage
    private let clock: any WallClock
    private let logger: Logger
    private let pending = Mutex<(arrived: Set<UserID>, left: Set<UserID>)>(([], []))

    init(storage: any SpotterStorage, clock: any WallClock, logger: Logger) {
        self.storage = storage
        self.clock = clock
        self.logger = logger
    }

    /// The person's first socket on this node opened.
    func arrived(_ user: UserID) {
        pending.withLock {
            $0.left.remove(user)
            $0.arrived.insert(user)
        }
    }

    /// The person's last socket on this node closed.
    func left(_ user: UserID) {
        pending.withLock {
            $0.arrived.remove(user)
            $0.left.insert(user)
        }
    }

    /// Writes the arrivals and departures since the last flush.
    func flush() async {
        let (arrived, left) = pending.withLock { state in
            defer { state = ([], []) }
            return state
        }
        do {
            if !arrived.isEmpty {
                try await storage.pushAddresses.markInApp(
                    Array(arrived), until: clock.now.addingTimeInterval(Self.vouchedFor))
            }
            for user in left { try await storage.pushAddresses.leftApp(user) }
        } catch {
            logger.warning("in-app presence not written", metadata: ["error": "\(error)"])
        }
    }

    /// Vouches again for everyone connected to this node.
    func refresh(_ users: [UserID]) async {
        guard !users.isEmpty else { return }
        do {
            try await storage.pushAddresses.markInApp(users, until: clock.now.addingTimeInterval(Self.vouchedFor))
        } catch {
            logger.warning("in-app presence not refreshed", metadata: ["error": "\(error)"])
        }
    }
}
