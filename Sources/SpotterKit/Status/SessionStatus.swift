import Foundation
import SpotterModels

/// What the session knows of itself, for a screen: connectivity, the sign-in state and who is signed in.
public struct SessionStatus: Sendable, Equatable {
    public var connectivity: Connectivity
    public var auth: AuthState
    /// The account of the last sign-in this launch (nil after a cold start until `/me` or a sign-in says).
    public var account: Account?
}

/// Keeps the two machines, fed from any thread (the client's executor, the socket's, the path monitor's), and
/// tells every listener each new status. A lock rather than an actor: the client reports synchronously, so
/// the status is current as soon as the call that changed it returns.
final class StatusTracker: ClientEventSink, @unchecked Sendable {
    private let lock = NSLock()
    private var connectivity = ConnectivityMachine()
    private var auth = AuthMachine(hasSession: false)
    private var account: Account?
    private var listeners: [UUID: AsyncStream<SessionStatus>.Continuation] = [:]
    /// What to do when the network comes back (the session drains and refreshes), with the comeback's number;
    /// set once, before use.
    var onCameBack: (@Sendable (Int) -> Void)?
    /// How many times the network came back this launch.
    private var comebacks = 0

    var comebackCount: Int { lock.withLock { comebacks } }

    var status: SessionStatus {
        lock.withLock { SessionStatus(connectivity: connectivity.state, auth: auth.state, account: account) }
    }

    func clientDid(_ event: ClientEvent) {
        let cameBack = update { state in
            switch event {
            case .reached: return state.connectivity.handle(.reached)
            case .unreachable: return state.connectivity.handle(.unreachable)
            case .signedIn(let account):
                state.account = account
                state.auth.handle(event)
            case .signedOut:
                state.account = nil
                state.auth.handle(event)
            default:
                state.auth.handle(event)
            }
            return false
        }
        if cameBack { cameBackAgain() }
    }

    func connectivityDid(_ input: ConnectivityMachine.Input) {
        if update({ $0.connectivity.handle(input) }) { cameBackAgain() }
    }

    private func cameBackAgain() {
        let number = lock.withLock {
            comebacks += 1
            return comebacks
        }
        onCameBack?(number)
    }

    /// At launch: whether a login is stored from before.
    func restored(hasSession: Bool, account: Account?) {
        update { state in
            if state.auth.state == .signedOut, hasSession { state.auth = AuthMachine(hasSession: true) }
            if state.account == nil { state.account = account }
            return false
        }
    }

    func updates() -> AsyncStream<SessionStatus> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SessionStatus.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        lock.withLock {
            listeners[id] = continuation
            continuation.yield(SessionStatus(connectivity: connectivity.state, auth: auth.state, account: account))
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    private struct State {
        var connectivity: ConnectivityMachine
        var auth: AuthMachine
        var account: Account?
    }

    /// Changes the state under the lock and tells the listeners if it changed.
    @discardableResult
    private func update(_ change: (inout State) -> Bool) -> Bool {
        lock.withLock {
            var state = State(connectivity: connectivity, auth: auth, account: account)
            let before = SessionStatus(connectivity: connectivity.state, auth: auth.state, account: account)
            let result = change(&state)
            (connectivity, auth, account) = (state.connectivity, state.auth, state.account)
            let after = SessionStatus(connectivity: connectivity.state, auth: auth.state, account: account)
            if after != before { for listener in listeners.values { listener.yield(after) } }
            return result
        }
    }
}
