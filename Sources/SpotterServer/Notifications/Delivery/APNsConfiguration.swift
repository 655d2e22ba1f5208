import Foundation

/// Who we are to Apple Push Notification service, and where to reach it.
///
/// APNs token-based auth needs the team and key identifiers from the developer account and the `.p8` signing
/// key (ES256, P-256) downloaded with them; one key serves every app of the team, so the topic (the app's
/// bundle id) is configured beside it. Build one per environment: a build signed for development gets device
/// tokens that only the sandbox knows, and production tokens are unknown to the sandbox.
///
/// ```swift
/// let configuration = APNsConfiguration(
///     teamID: "ABCDE12345", keyID: "KEY1234567", privateKeyPEM: try String(contentsOfFile: "AuthKey.p8"),
///     topic: "club.spotter.app", baseURL: APNsConfiguration.sandboxURL)
/// ```
///
/// See https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns
public struct APNsConfiguration: Sendable {
    /// The production gateway, for App Store and TestFlight builds.
    public static let productionURL = "https://api.push.apple.com"
    /// The development gateway, for builds signed with a development profile.
    public static let sandboxURL = "https://api.sandbox.push.apple.com"

    /// The 10-character Team ID: the provider token's `iss`.
    public var teamID: String
    /// The 10-character Key ID of the signing key: the provider token's `kid`.
    public var keyID: String
    /// The contents of the `.p8` file (`-----BEGIN PRIVATE KEY-----`…). Kept only to sign provider tokens;
    /// never logged.
    public var privateKeyPEM: String
    /// The app's bundle id, sent as `apns-topic`.
    public var topic: String
    /// `productionURL`, `sandboxURL`, or a test server's URL; no trailing slash needed.
    public var baseURL: String

    public init(
        teamID: String, keyID: String, privateKeyPEM: String, topic: String, baseURL: String = Self.productionURL
    ) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
        self.topic = topic
        self.baseURL = baseURL
    }
}

extension APNsConfiguration: CustomStringConvertible {
    /// Leaves the key out, so a configuration that ends up in a log or an error message doesn't leak it.
    public var description: String {
        "APNsConfiguration(teamID: \(teamID), keyID: \(keyID), topic: \(topic), baseURL: \(baseURL))"
    }
}
