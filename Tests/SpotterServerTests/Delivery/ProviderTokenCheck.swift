import Crypto
import Foundation
import SpotterModels

/// Checks a provider token as APNs does: an ES256 signature by the public half of the team's key, the
/// right `kid` and `iss`, and an `iat` in whole seconds, not in the future and under an hour old.
///
/// It uses swift-crypto directly rather than JWTKit, so the client's JWTKit signing is checked by
/// something other than itself.
struct ProviderTokenCheck: Sendable {
    let keyID: String
    let teamID: String
    let publicKey: P256.Signing.PublicKey

    struct Claims: Decodable, Equatable, Sendable {
        let iss: String
        /// An `Int`, so a fractional `iat` fails to decode, as APNs would refuse it.
        let iat: Int
    }

    /// Why APNs would refuse the token: its `reason`.
    struct Refusal: Error, Equatable {
        let reason: String
    }

    private struct Header: Decodable {
        let alg: String
        let kid: String?
    }

    /// The token's claims when APNs would accept it.
    func claims(of jwt: String, now: Date) throws(Refusal) -> Claims {
        let invalid = Refusal(reason: "InvalidProviderToken")
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3,
            let headerJSON = Base64URL.decode(parts[0]), let claimsJSON = Base64URL.decode(parts[1]),
            let signatureBytes = Base64URL.decode(parts[2]),
            let header = try? JSONDecoder().decode(Header.self, from: headerJSON),
            let claims = try? JSONDecoder().decode(Claims.self, from: claimsJSON)
        else { throw invalid }
        guard header.alg == "ES256", header.kid == keyID, claims.iss == teamID else { throw invalid }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { throw invalid }
        let age = now.timeIntervalSince1970 - TimeInterval(claims.iat)
        guard age > -60 else { throw invalid }
        guard age < 3600 else { throw Refusal(reason: "ExpiredProviderToken") }
        return claims
    }
}
