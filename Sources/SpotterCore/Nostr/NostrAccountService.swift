import Foundation
import SpotterModels
import SpotterNostr

/// Nostr keys on Spotter accounts: linking a key by a signed challenge, unlinking it, and signing in with it.
///
/// A key proves itself by signing, never by handing over its secret: linking answers a one-time challenge with
/// a NIP-42-shaped event (kind 22242) naming this server's relay, and signing in sends a NIP-98 event (kind
/// 27235) naming the sign-in URL and method. Both must be made within a minute of the server's clock, and
/// each is good once. A key links to one account. Sign-in answers the same token pair a password sign-in
/// does, with the same throttle, suspension refusal, login record and new-device alert.
///
/// <https://github.com/nostr-protocol/nips/blob/master/42.md>,
/// <https://github.com/nostr-protocol/nips/blob/master/98.md>
public struct NostrAccountService: Sendable {
    /// Whether a key linked to no account may make one by signing in.
    public enum Signup: String, Sendable {
        /// Only linked keys sign in (the default): an unknown key is refused.
        case closed
        /// An unknown key gets a new account, named after its `npub`, with no password and the key linked.
        case open
    }

    let storage: any SpotterStorage
    let accounts: AccountService
    let clock: any WallClock
    let signup: Signup
    /// The site's address as people reach it, e.g. `https://spotter.example`, without a trailing slash.
    public let siteURL: String
    /// How far an event's `created_at` may be from the server's clock, either way; also a challenge's life.
    public let window: TimeInterval

    public init(
        storage: any SpotterStorage, accounts: AccountService, clock: any WallClock, siteURL: String,
        signup: Signup = .closed, window: TimeInterval = 60
    ) {
        self.storage = storage
        self.accounts = accounts
        self.clock = clock
        self.siteURL = siteURL.hasSuffix("/") ? String(siteURL.dropLast()) : siteURL
        self.signup = signup
        self.window = window
    }

    /// This server's relay, which link events must name: the site's address with a `ws`/`wss` scheme and
    /// `/relay`.
    public var relayURL: String { Self.relayURL(siteURL: siteURL) }

    /// The relay's address for a site's address (the one rule the relay's NIP-11 page and `AUTH` share).
    public static func relayURL(siteURL: String) -> String {
        var site = siteURL
        while site.hasSuffix("/") { site.removeLast() }
        if site.hasPrefix("https://") { return "wss://" + site.dropFirst("https://".count) + "/relay" }
        if site.hasPrefix("http://") { return "ws://" + site.dropFirst("http://".count) + "/relay" }
        return site + "/relay"
    }

    /// The URL a NIP-98 event for `path` (e.g. `/api/v1/auth/nostr`) must name in its `u` tag.
    public func url(of path: String) -> String { siteURL + path }

    // MARK: Linking

    /// A new challenge for the caller to sign, good once within `window`.
    public func challenge(_ session: AuthenticatedSession) async throws -> NostrChallenge {
        let challenge = OpaqueToken.generateChallenge()
        let expiresAt = clock.now + window
        try await storage.nostr.insertChallenge(
            hash: OpaqueToken.hash(challenge), user: session.account.id, expiresAt: expiresAt)
        return NostrChallenge(challenge: challenge, relayURL: relayURL, expiresAt: expiresAt)
    }

    /// Links the key that signed `request.event`, an answer to one of the caller's challenges. A wrong event
    /// is a 422 naming `event`; a key linked to any account already is a 409 naming `pubkey`.
    public func link(_ request: NostrLinkRequest, _ session: AuthenticatedSession) async throws -> NostrKey {
        let event = request.event
        let now = clock.now
        try Self.checkText(of: event)
        if let problem = NostrProofs.linkProblem(event, relayURL: relayURL, now: now, window: window) {
            throw SpotterError.invalid("event", problem)
        }
        let challenge = event.firstTagValue("challenge") ?? ""
        // A challenge is spent by any answer, right or wrong: the refusals below keep its consumption.
        try await storage.keepingWrites {
            guard challenge.utf8.count <= 200,
                try await storage.nostr.consumeChallenge(hash: OpaqueToken.hash(challenge), at: now)
                    == session.account.id
            else {
                throw SpotterError.invalid(
                    "event", "its challenge is not one this server gave you, or it was used already or has expired")
            }
            do {
                try await storage.nostr.link(event.pubkey, to: session.account.id, at: now)
            } catch StorageError.duplicate {
                throw SpotterError.conflict(field: "pubkey", detail: "This key is linked to an account already.")
            }
        }
        return Self.key(LinkedNostrKey(pubkey: event.pubkey, user: session.account.id, linkedAt: now))
    }

    /// The caller's linked keys, oldest first.
    public func keys(_ session: AuthenticatedSession) async throws -> [NostrKey] {
        try await storage.nostr.keys(of: session.account.id).sorted { $0.linkedAt < $1.linkedAt }.map(Self.key)
    }

    /// Unlinks one of the caller's keys; a key that isn't theirs (or isn't a key) is not found.
    public func unlink(_ pubkey: String, _ session: AuthenticatedSession) async throws {
        guard let key = NostrPublicKey(rawValue: try TextInput.checked(pubkey, field: "pubkey").lowercased()),
            try await storage.nostr.unlink(key, from: session.account.id)
        else { throw SpotterError.notFound("No such key is linked to your account.") }
    }

    /// Like all text the API takes (`TextInput`), a link event's content and tags hold no control character
    /// that means nothing there: a 422 names the string, before any signature is checked.
    static func checkText(of event: NostrEvent) throws {
        var problems: [FieldError] = []
        _ = TextInput.check(event.content, "event.content", as: .lines, into: &problems)
        for (index, tag) in event.tags.enumerated() {
            for (position, value) in tag.enumerated() {
                _ = TextInput.check(value, "event.tags[\(index)][\(position)]", into: &problems)
            }
        }
        if !problems.isEmpty { throw SpotterError.validation(problems) }
    }

    static func key(_ linked: LinkedNostrKey) -> NostrKey {
        NostrKey(pubkey: linked.pubkey.rawValue, npub: NostrProofs.npub(linked.pubkey), linkedAt: linked.linkedAt)
    }

    // MARK: Signing in

    /// What a sign-in made: the token pair, and whether the account is new (sign-up by Nostr).
    public struct SignIn: Sendable {
        public var tokens: TokenResponse
        public var created: Bool
    }

    /// Signs in with a NIP-98 `Authorization: Nostr <base64 event>` header made for `url` and `POST`. Every
    /// refusal is `unauthorized` with a detail that says which check failed. Like password sign-ins, too many
    /// refused signed events (a replay, an unknown key) of one key or from one address are `rateLimited`.
    public func signIn(
        authorization: String?, url: String, device: String? = nil, clientAddress: String? = nil
    ) async throws -> SignIn {
        let now = clock.now
        let event: NostrEvent
        do {
            event = try NostrProofs.authorizationEvent(
                header: authorization, url: url, method: "POST", now: now, window: window)
        } catch {
            // Not counted by the throttle: an event that fails these checks proves nothing about any key, and
            // no number of tries forges a signature, so only the failures of signed events count.
            throw SpotterError.unauthorized(error.detail)
        }
        let login = "nostr:\(event.pubkey.rawValue)"
        try await accounts.throttle.check(login: login, address: clientAddress)
        let expiresAt = Date(timeIntervalSince1970: TimeInterval(event.createdAt)) + window + 1
        guard try await storage.nostr.markAuthorizationUsed(event.id, expiresAt: expiresAt) else {
            await accounts.throttle.recordFailure(login: login, address: clientAddress)
            throw SpotterError.unauthorized("This authorization event was used already; sign a new one.")
        }
        if let owner = try await storage.nostr.owner(of: event.pubkey),
            let account = try await storage.accounts.find(id: owner)
        {
            guard account.suspendedAt == nil else { throw SpotterError.unauthorized("This account is suspended.") }
            await accounts.throttle.recordSuccess(login: login)
            let tokens = try await accounts.signIn(
                identified: account, isNew: false, device: device, address: clientAddress)
            return SignIn(tokens: tokens, created: false)
        }
        guard signup == .open else {
            await accounts.throttle.recordFailure(login: login, address: clientAddress)
            throw SpotterError.unauthorized("This key is not linked to an account.")
        }
        let (account, created) = try await createAccount(for: event.pubkey)
        guard account.suspendedAt == nil else { throw SpotterError.unauthorized("This account is suspended.") }
        let tokens = try await accounts.signIn(
            identified: account, isNew: created, device: device, address: clientAddress)
        return SignIn(tokens: tokens, created: created)
    }

    /// A new account for `key`, named after its `npub` (longer, then with digits, while the name is taken),
    /// with the key linked in the same unit of work. A key linked meanwhile signs in to that account instead.
    private func createAccount(for key: NostrPublicKey) async throws -> (AccountRecord, created: Bool) {
        let npub = NostrProofs.npub(key)
        var username = String(npub.prefix(16))
        for attempt in 0..<8 {
            let now = clock.now
            let account = AccountRecord(
                id: .generate(at: now), username: username, email: nil, passwordHash: nil,
                displayName: String(npub.prefix(12)) + "…", appleSubject: nil, createdAt: now)
            do {
                try await storage.write {
                    try await storage.accounts.create(account)
                    try await storage.nostr.link(key, to: account.id, at: now)
                }
                return (account, true)
            } catch StorageError.duplicate(let field) where field == "pubkey" {
                if let owner = try await storage.nostr.owner(of: key),
                    let linked = try await storage.accounts.find(id: owner)
                {
                    return (linked, false)
                }
                throw StorageError.duplicate(field: field)
            } catch StorageError.duplicate(let field) where field == "username" {
                username =
                    attempt < 2
                    ? String(npub.prefix(16 + 6 * (attempt + 1))) : "\(npub.prefix(22))\(Int.random(in: 10...99_999))"
            }
        }
        throw SpotterError.conflict(field: "username", detail: "Could not find a free username for this key.")
    }
}
