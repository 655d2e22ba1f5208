import Crypto
import Foundation
import NIOSSL
import X509

/// A TLS certificate for `localhost`, made fresh by each test run so no key is ever committed, and trusted by
/// nothing but the `HTTPClient` a test builds around it.
struct SelfSignedCertificate {
    let certificate: NIOSSLCertificate
    let privateKey: NIOSSLPrivateKey

    init(hostname: String = "localhost") throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(hostname) }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(24 * 3600),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                SubjectAlternativeNames([.dnsName(hostname)])
            },
            issuerPrivateKey: .init(key))
        self.certificate = try NIOSSLCertificate(
            bytes: Array(certificate.serializeAsPEM().pemString.utf8), format: .pem)
        self.privateKey = try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)
    }
}
