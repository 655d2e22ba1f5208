import Crypto
import Foundation
import NIOSSL
import X509

/// A self-signed certificate made for one test run, so a local server can speak TLS and the client can be
/// told to trust exactly it, and nothing else.
struct TestCertificate: Sendable {
    let certificate: NIOSSLCertificate
    let privateKey: NIOSSLPrivateKey

    init() throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("localhost") }
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: Date().addingTimeInterval(-60), notValidAfter: Date().addingTimeInterval(3600),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try .init {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                SubjectAlternativeNames([.dnsName("localhost")])
            },
            issuerPrivateKey: .init(key))
        self.certificate = try NIOSSLCertificate(
            bytes: Array(certificate.serializeAsPEM().pemString.utf8), format: .pem)
        self.privateKey = try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)
    }

    var serverContext: NIOSSLContext {
        get throws {
            try NIOSSLContext(
                configuration: .makeServerConfiguration(
                    certificateChain: [.certificate(certificate)], privateKey: .privateKey(privateKey)))
        }
    }

    /// Trusts this certificate alone, with full verification: the client must reach the server as `localhost`.
    var clientConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([certificate])
        return configuration
    }
}
