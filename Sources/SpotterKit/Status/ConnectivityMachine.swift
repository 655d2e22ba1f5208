import Foundation

/// Whether the server can be reached, as far as the app knows.
public enum Connectivity: Sendable, Equatable {
    /// Nothing has been tried yet this launch.
    case unknown
    case online
    case offline
}

/// The connectivity rules, with no I/O (the POWR seed's `ConnectivityService`): fed the device's network path
/// (NWPathMonitor, where there is one), what requests met, and the live socket; answers whether the network
/// has just come back, when what waits should go and what is shown should refresh.
///
/// A request that cannot reach the server, or a path with no network, is offline at once; any answer from
/// the server, a socket that opens, or a path that is back is online. The socket closing says nothing (the
/// app went to the background, or the server restarts); the next request tells.
///
/// ```swift
/// var connectivity = ConnectivityMachine()
/// connectivity.handle(.unreachable)        // false: offline
/// connectivity.handle(.reached)            // true: back, drain the outbox and refresh
/// ```
public struct ConnectivityMachine: Sendable, Equatable {
    public enum Input: Sendable, Equatable {
        /// The device's network path changed (`NWPath.status == .satisfied`).
        case path(satisfied: Bool)
        /// A request was answered by the server.
        case reached
        /// A request could not reach the server.
        case unreachable
        /// The live socket opened.
        case socketOpened
    }

    public private(set) var state = Connectivity.unknown

    public init() {}

    /// Applies `input`; true when it brought the network back after it was offline.
    @discardableResult
    public mutating func handle(_ input: Input) -> Bool {
        let before = state
        switch input {
        case .path(satisfied: false), .unreachable: state = .offline
        case .path(satisfied: true), .reached, .socketOpened: state = .online
        }
        return before == .offline && state == .online
    }
}
