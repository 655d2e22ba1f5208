import Foundation
import JWTKit
import NIOConcurrencyHelpers

/// The provider token APNs wants in `authorization: bearer …`: an ES256 JWT naming our key (`kid`) and team
/// (`iss`), stamped with when it was made (`iat`).
///
/// Apple refuses a token older than an hour (403 `ExpiredProviderToken`) and also one replaced more often than
/// every 20 minutes (429 `TooManyProviderTokenUpdates`), so every send shares one token, replaced once it is
/// 50 minutes old or when APNs says it expired. Sends that find it stale at the same moment all wait for the
/// same new token rather than each signing their own.
/// See https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns
final class APNsProviderTokens: Sendable {
    /// A signed token, and which one it is, so a refusal retires only the token that was refused.
    struct Token: Sendable {
        let jwt: String
        let issuedAt: Date
        let generation: UInt64
    }

    /// How long a token is used: 10 minutes short of Apple's hour, for clock skew and requests in flight.
    static let lifetime: TimeInterval = 50 * 60

    private let keyID: String
    private let teamID: String
    private let key: ES256PrivateKey
    private let now: @Sendable () -> Date
    private let state = NIOLockedValueBox(State())

    private struct State: Sendable {
        var current: (issuedAt: Date, generation: UInt64, jwt: Task<String, any Error>)?
        var generations: UInt64 = 0
    }

    /// - Throws: when the PEM is not a P-256 private key, so a misconfigured key stops the server at startup
    ///   rather than failing every push.
    init(configuration: APNsConfiguration, now: @escaping @Sendable () -> Date) throws {
        keyID = configuration.keyID
        teamID = configuration.teamID
        key = try ES256PrivateKey(pem: configuration.privateKeyPEM)
        self.now = now
    }

    /// The token to send now: the shared one while it is young enough, else a newly signed one.
    func token() async throws -> Token {
        // `iat` is whole seconds: Apple documents it as an integer epoch time.
        let now = Date(timeIntervalSince1970: self.now().timeIntervalSince1970.rounded(.down))
        let (keyID, teamID, key) = (keyID, teamID, key)
        let current = state.withLockedValue { state in
            if let current = state.current, now.timeIntervalSince(current.issuedAt) < Self.lifetime {
                return current
            }
            state.generations += 1
            let claims = APNsProviderClaims(iss: IssuerClaim(value: teamID), iat: IssuedAtClaim(value: now))
            let signing = Task { try await Self.sign(claims, keyID: keyID, key: key) }
            state.current = (now, state.generations, signing)
            return state.current!
        }
        do {
            return Token(jwt: try await current.jwt.value, issuedAt: current.issuedAt, generation: current.generation)
        } catch {
            retire(generation: current.generation)
            throw error
        }
    }

    /// Stops using `generation` (APNs called it expired), so the next send signs a new token; a token made
    /// since by another send is kept.
    func retire(generation: UInt64) {
        state.withLockedValue { state in
            if state.current?.generation == generation { state.current = nil }
        }
    }

    private static func sign(_ claims: APNsProviderClaims, keyID: String, key: ES256PrivateKey) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: keyID))
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
    }
}

/// The claims of a provider token: nothing but who signs and when.
struct APNsProviderClaims: JWTPayload {
    let iss: IssuerClaim
    let iat: IssuedAtClaim

    /// APNs checks these; we only ever sign them.
    func verify(using algorithm: some JWTAlgorithm) throws {}
}
