import Crypto
import Foundation
import Hummingbird
import JWTKit
import Logging
import NIOCore
import ServiceLifecycle
import SpotterModels
import _CryptoExtras

/// Keys the test makes, published as a JWKS by a local HTTP server, and identity tokens signed with them,
/// standing in for Apple.
struct AppleKeys: Sendable {
    static let issuer = "https://appleid.apple.com"
    let ecKey = ES256PrivateKey()
    let rsaKey: JWTKit.Insecure.RSA.PrivateKey
    /// Signs with both keys, by kid.
    let signers: JWTKeyCollection
    /// A key Apple never published, but with the same kid as the real EC key.
    let impostor: JWTKeyCollection

    init() async throws {
        rsaKey = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        signers = JWTKeyCollection()
        await signers.add(ecdsa: ecKey, kid: "ec-1")
        await signers.add(rsa: rsaKey, digestAlgorithm: .sha256, kid: "rsa-1")
        impostor = JWTKeyCollection()
        await impostor.add(ecdsa: ES256PrivateKey(), kid: "ec-1")
    }

    var jwksJSON: String {
        get throws {
            let ec = ecKey.publicKey.parameters!
            let rsa = try rsaKey.publicKey.getKeyPrimitives()
            return """
                {"keys": [
                  {"kty": "EC", "crv": "P-256", "x": "\(ec.x)", "y": "\(ec.y)", "kid": "ec-1", "alg": "ES256", "use": "sig"},
                  {"kty": "RSA", "n": "\(Base64URL.encode(rsa.modulus))", "e": "\(Base64URL.encode(rsa.publicExponent))", "kid": "rsa-1", "alg": "RS256", "use": "sig"}
                ]}
                """
        }
    }

    /// An identity token as Apple would issue it; each parameter can be spoiled by a test.
    func token(
        subject: String = "001234.apple.user", audience: String = "club.spotter.app", issuer: String = Self.issuer,
        expires: Date = Date().addingTimeInterval(600), rawNonce: String = "nonce-1", email: String? = nil,
        emailVerified: Bool = true, kid: String = "ec-1", impostor useImpostor: Bool = false
    ) async throws -> String {
        let payload = AppleIdentityToken(
            issuer: .init(value: issuer), audience: .init(value: [audience]), expires: .init(value: expires),
            issuedAt: .init(value: Date()), subject: .init(value: subject), nonce: Self.sha256(rawNonce), email: email,
            emailVerified: .init(value: emailVerified))
        return try await (useImpostor ? impostor : signers).sign(payload, kid: JWKIdentifier(string: kid))
    }

    static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Serves the JWKS at `http://127.0.0.1:<port>/keys` while `body` runs.
    func serving<T: Sendable>(_ body: @Sendable (_ jwksURL: String) async throws -> T) async throws -> T {
        let json = try jwksJSON
        let router = Router()
        router.get("keys") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "jwks")
        logger.logLevel = .warning
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let services = ServiceGroup(services: [app], logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            do {
                let result = try await body("http://127.0.0.1:\(port)/keys")
                await services.triggerGracefulShutdown()
                return result
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }
}
