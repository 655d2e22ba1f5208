import Foundation
import SpotterModels

/// What `SpotterClient` saw happen, for the session's connectivity and sign-in state (issue 40, item 8).
public enum ClientEvent: Sendable, Equatable {
    /// The server answered a request (any status): the network reaches it.
    case reached
    /// A request could not reach the server (no route, timed out, the connection lost).
    case unreachable
    case signingIn
    case signedIn(Account)
    /// A sign-in was refused or could not be sent.
    case signInFailed
    /// The access token was refused; the refresh token is being spent for a new one.
    case refreshing
    case refreshed
    /// The refresh could not be made (no network): the login is still good, and is tried again later.
    case refreshFailed
    /// The server ended the login (it expired, was signed out elsewhere, or was revoked): sign in again.
    case sessionEnded
    case signedOut
}

/// Where a client reports what it saw; called on the client's own executor, so it must not block.
public protocol ClientEventSink: Sendable {
    func clientDid(_ event: ClientEvent)
}
