import Foundation
import SpotterModels

/// Where a person's notifications can reach them outside the app: their phones (APNs tokens), browsers (Web
/// Push subscriptions), and the devices they signed in from (for new-device alerts).
public protocol PushAddressStore: Sendable {
    /// Remembers that the user signed in from `device` (a hash of what the client says it is); returns
    /// `true` the first time, which is what a new-device alert needs.
    func rememberDevice(_ device: String, of user: UserID, at date: Date) async throws -> Bool

    func addDevice(_ token: String, of user: UserID, at date: Date) async throws
    func removeDevice(_ token: String, of user: UserID) async throws -> Bool
    func devices(of user: UserID) async throws -> [String]
    func addWebPush(_ subscription: WebPushRegistration, of user: UserID, at date: Date) async throws
    func removeWebPush(endpoint: String, of user: UserID) async throws -> Bool
    func webPushSubscriptions(of user: UserID) async throws -> [WebPushRegistration]
    /// Forgets an address the provider said is gone (any user's).
    func prune(_ target: DeliveryTarget) async throws

    // In the app: a live socket on some node (`InAppPresence`), when pushes would only repeat what it shows.

    /// These people have a live socket on the calling node until at least `until` (a node refreshes it while
    /// the socket stays).
    func markInApp(_ users: [UserID], until: Date) async throws
    /// The person's last socket on the calling node closed; another node's, if any, marks them again.
    func leftApp(_ user: UserID) async throws
    /// Whether the person had a live socket somewhere at `date`, as far as the nodes last said.
    func isInApp(_ user: UserID, at date: Date) async throws -> Bool
}
