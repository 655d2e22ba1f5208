import Foundation
import SpotterCore

/// The Nostr relay's settings (`/relay`) and sign-in with Nostr.
public struct NostrConfiguration: Sendable, Equatable {
    /// Who may publish: keys linked to accounts (the default) or anyone.
    public var writePolicy = NostrWritePolicy.linked
    /// Whether a key linked to no account may sign in with Nostr and get a new account.
    public var allowsSignup = false
    public var limits = NostrRelayLimits()
    /// The relay's name in its NIP-11 document.
    public var name = "Spotter"

    public init() {}

    /// `SPOTTER_NOSTR_WRITE` (`linked` or `open`), `SPOTTER_NOSTR_SIGNUP` (`open` or `closed`),
    /// `SPOTTER_RELAY_NAME`, `SPOTTER_RELAY_MAX_MESSAGES_PER_SECOND`, `SPOTTER_RELAY_MAX_SUBSCRIPTIONS`.
    public static func from(environment: [String: String]) throws -> NostrConfiguration {
        var configuration = NostrConfiguration()
        if let text = environment["SPOTTER_NOSTR_WRITE"], !text.isEmpty {
            guard let policy = NostrWritePolicy(rawValue: text) else {
                throw ConfigurationError("SPOTTER_NOSTR_WRITE must be linked or open")
            }
            configuration.writePolicy = policy
        }
        if let text = environment["SPOTTER_NOSTR_SIGNUP"], !text.isEmpty {
            guard ["open", "closed"].contains(text) else {
                throw ConfigurationError("SPOTTER_NOSTR_SIGNUP must be open or closed")
            }
            configuration.allowsSignup = text == "open"
        }
        if let name = environment["SPOTTER_RELAY_NAME"], !name.isEmpty { configuration.name = name }
        func positive(_ name: String) throws -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Int(text), value >= 1 else { throw ConfigurationError("\(name) must be 1 or more") }
            return value
        }
        if let rate = try positive("SPOTTER_RELAY_MAX_MESSAGES_PER_SECOND") {
            configuration.limits.maxMessagesPerSecond = rate
        }
        if let subscriptions = try positive("SPOTTER_RELAY_MAX_SUBSCRIPTIONS") {
            configuration.limits.maxSubscriptions = subscriptions
        }
        return configuration
    }
}

extension AppConfiguration {
    /// The relay's address as clients name it: the site's address with `ws`/`wss` for `http`/`https`.
    public var relayURL: String {
        var site = siteURL
        while site.hasSuffix("/") { site.removeLast() }
        if site.hasPrefix("https://") { return "wss://" + site.dropFirst("https://".count) + "/relay" }
        if site.hasPrefix("http://") { return "ws://" + site.dropFirst("http://".count) + "/relay" }
        return site + "/relay"
    }
}
