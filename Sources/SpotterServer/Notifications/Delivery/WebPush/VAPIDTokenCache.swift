import Foundation
import JWTKit

/// The claims of a VAPID token ([RFC 8292 §2](https://www.rfc-editor.org/rfc/rfc8292#section-2)): which push
/// service it is for, until when, and who sent it.
struct VAPIDClaims: JWTPayload, Equatable {
    /// The push service's origin, `scheme://host[:port]`.
    var aud: AudienceClaim
    /// At most 24 hours ahead (RFC 8292 §2).
    var exp: ExpirationClaim
    /// The operator's `mailto:` or `https:` contact.
    var sub: SubjectClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

/// Signs VAPID tokens and keeps one per push service origin, so a burst of messages to one service costs one
/// ECDSA signature instead of one each, and the service sees a stable token.
///
/// A token lives ``lifetime`` (12 h, half the 24 h RFC 8292 allows, so clock skew on the service's side cannot
/// push it past the limit) and is replaced once less than ``renewalMargin`` is left, well before a message
/// could reach the service with an expired one.
actor VAPIDTokenCache {
    static let lifetime: TimeInterval = 12 * 3600
    static let renewalMargin: TimeInterval = 6 * 3600

    private let signer = JWTKeyCollection()
    private var signerReady = false
    private let keys: VAPIDKeys
    private var tokens: [String: (token: String, expires: Date)] = [:]

    init(keys: VAPIDKeys) {
        self.keys = keys
    }

    /// A token for `audience` valid for at least ``renewalMargin`` after `now`.
    func token(audience: String, now: Date) async throws -> String {
        if let cached = tokens[audience], cached.expires.timeIntervalSince(now) > Self.renewalMargin {
            return cached.token
        }
        if !signerReady {
            await signer.add(ecdsa: try ES256PrivateKey(backing: keys.privateKey))
            signerReady = true
        }
        // Whole seconds: `exp` is a NumericDate, and a fraction would only be truncated on the other side.
        let expires = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + Self.lifetime).rounded(.down))
        let claims = VAPIDClaims(
            aud: .init(value: [audience]), exp: .init(value: expires), sub: .init(value: keys.subject))
        let token = try await signer.sign(claims)
        tokens[audience] = (token, expires)
        return token
    }
}
