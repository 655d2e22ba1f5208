import Foundation

/// The sign-in state a screen shows: the POWR seed's "authentication state machine".
public enum AuthState: Sendable, Equatable {
    case signedOut
    case signingIn
    case signedIn
    /// Signed in, with a new access token on its way (requests wait for it).
    case refreshing
    /// The server ended the login; the person must sign in again (what they kept is still on the device).
    case expired
}

/// The sign-in state's rules, with no I/O: `SpotterSession` feeds it what the client saw (`ClientEvent`), as
/// `RealtimeMachine` is fed, and tests drive it with any sequence they like.
///
/// ```swift
/// var auth = AuthMachine(hasSession: false)      // .signedOut
/// auth.handle(.signingIn)                         // .signingIn
/// auth.handle(.signInFailed)                      // .signedOut, as before the try
/// ```
public struct AuthMachine: Sendable, Equatable {
    public private(set) var state: AuthState
    /// What a failed sign-in goes back to: signed out, or expired (the expired login is still the reason).
    private var beforeSigningIn: AuthState

    /// `hasSession`: a login is stored from an earlier launch.
    public init(hasSession: Bool) {
        state = hasSession ? .signedIn : .signedOut
        beforeSigningIn = state
    }

    /// The state after `event`; events that say nothing about signing in leave it as it is.
    @discardableResult
    public mutating func handle(_ event: ClientEvent) -> AuthState {
        switch (state, event) {
        case (.signingIn, .signingIn):
            break
        case (_, .signingIn):
            beforeSigningIn = state
            state = .signingIn
        case (.signingIn, .signInFailed):
            state = beforeSigningIn
        case (_, .signedIn):
            state = .signedIn
        case (.signedIn, .refreshing):
            state = .refreshing
        case (.refreshing, .refreshed), (.refreshing, .refreshFailed):
            state = .signedIn
        case (.signedIn, .sessionEnded), (.refreshing, .sessionEnded):
            state = .expired
        case (_, .signedOut):
            state = .signedOut
        default:
            break
        }
        return state
    }
}
