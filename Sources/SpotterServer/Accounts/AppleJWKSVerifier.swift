import AsyncHTTPClient
import Crypto
import Foundation
import JWTKit
import NIOCore
import SpotterCore
import SpotterModels

/// Verifies Sign in with Apple identity tokens against Apple's published key set (JWKS).
///
/// JWTKit checks the signature (RS256 or ES256, whichever the key says), `iss`, `exp` and that `aud` is our
/// client id; this type adds the nonce check and keeps the key set, refetching it at most every 5 minutes
/// when a token names a key it doesn't know (Apple rotates keys).
/// See https://developer.apple.com/documentation/sign_in_with_apple/sign_in_with_apple_rest_api/verifying_a_user
actor AppleJWKSVerifier: AppleIdentityVerifier {
    let clientID: String
    let jwksURL: String
    let httpClient: HTTPClient
    private var keys: JWTKeyCollection?
    private var knownKeyIDs: Set<String> = []
    private var fetchedAt: ContinuousClock.Instant?

    init(clientID: String, jwksURL: String, httpClient: HTTPClient = .shared) {
        self.clientID = clientID
        self.jwksURL = jwksURL
        self.httpClient = httpClient
    }

    func verify(identityToken: String, rawNonce: String) async throws -> AppleIdentity {
        // Don't fetch keys for something that isn't even shaped like a JWT.
        guard identityToken.split(separator: ".", omittingEmptySubsequences: false).count == 3,
            identityToken.utf8.count < 16_384
        else { throw SpotterError.unauthorized("The Apple identity token is not a JWT.") }
        let keyID = Self.keyID(of: identityToken)
        let token: AppleIdentityToken
        do {
            // JWTKit falls back to a default key for an unknown `kid`; Apple always names its key, so a token
            // naming one Apple doesn't publish is refused (after one refetch, in case Apple just rotated).
            var keys = try await currentKeys(refresh: false)
            if let keyID, !knownKeyIDs.contains(keyID) { keys = try await currentKeys(refresh: Self.stale(fetchedAt)) }
            guard let keyID, knownKeyIDs.contains(keyID) else {
                throw SpotterError.unauthorized("The Apple identity token is signed with a key Apple does not publish.")
            }
            token = try await verified(identityToken, keys: keys)
        } catch let error as SpotterError {
            throw error
        } catch {
            guard Self.stale(fetchedAt) else {
                throw SpotterError.unauthorized("The Apple identity token is not valid: \(Self.reason(error)).")
            }
            do {
                token = try await verified(identityToken, keys: try await currentKeys(refresh: true))
            } catch let error as SpotterError {
                throw error
            } catch {
                throw SpotterError.unauthorized("The Apple identity token is not valid: \(Self.reason(error)).")
            }
        }
        let expectedNonce = Hex.encode(SHA256.hash(data: Data(rawNonce.utf8)))
        guard let nonce = token.nonce, nonce == expectedNonce else {
            throw SpotterError.unauthorized("The Apple identity token's nonce does not match.")
        }
        return AppleIdentity(
            subject: token.subject.value, email: token.email, emailVerified: token.emailVerified?.value ?? false)
    }

    private func verified(_ token: String, keys: JWTKeyCollection) async throws -> AppleIdentityToken {
        try await keys.verify(token, as: AppleIdentityToken.self, expectedAudience: clientID)
    }

    private func currentKeys(refresh: Bool) async throws -> JWTKeyCollection {
        if let keys, !refresh { return keys }
        var request = HTTPClientRequest(url: jwksURL)
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await httpClient.execute(request, timeout: .seconds(10))
            body = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw SpotterError.unavailable("Apple's sign-in keys could not be fetched.")
        }
        guard response.status == .ok else {
            throw SpotterError.unavailable("Apple's sign-in keys could not be fetched (HTTP \(response.status.code)).")
        }
        let collection = JWTKeyCollection()
        do {
            let jwks = try JSONDecoder().decode(JWKS.self, from: Data(buffer: body))
            try await collection.add(jwks: jwks)
            knownKeyIDs = Set(jwks.keys.compactMap { $0.keyIdentifier?.string })
        } catch {
            throw SpotterError.unavailable("Apple's sign-in keys could not be read.")
        }
        keys = collection
        fetchedAt = .now
        return collection
    }

    /// Whether the key set is old enough to fetch again on a miss (rate-limits refetches forced by tokens).
    private static func stale(_ fetchedAt: ContinuousClock.Instant?) -> Bool {
        guard let fetchedAt else { return true }
        return ContinuousClock.now - fetchedAt > .seconds(300)
    }

    /// The `kid` of a JWT's header, read without verifying anything.
    private static func keyID(of token: String) -> String? {
        guard let header = token.split(separator: ".", omittingEmptySubsequences: false).first else { return nil }
        guard let data = Base64URL.decode(String(header)),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["kid"] as? String
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? JWTError { return error.errorType.description }
        return "it could not be read"
    }
}
