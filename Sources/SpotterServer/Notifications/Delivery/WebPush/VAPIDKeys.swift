import Crypto
import Foundation
import SpotterModels

/// The application server's identity towards push services: a P-256 key pair and a way to reach its operator
/// ([RFC 8292](https://www.rfc-editor.org/rfc/rfc8292)).
///
/// Browsers bind a subscription to the public key the page passed as `applicationServerKey`, and push
/// services refuse messages not signed by it, so the private key is generated once, stored as a secret and
/// loaded at every start. `description` names only the public half, so logging the value leaks nothing.
///
/// ```swift
/// let keys = try VAPIDKeys(privateKeyBase64URL: secret, subject: "mailto:ops@spotter.club")
/// // the page: pushManager.subscribe({ applicationServerKey: keys.publicKeyBase64URL, … })
/// ```
public struct VAPIDKeys: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Why a key pair could not be made.
    public enum Error: Swift.Error, Equatable {
        /// The private key is not base64url of a 32-byte P-256 scalar.
        case invalidPrivateKey
        /// RFC 8292 §2.1: the subject is a `mailto:` or `https:` URI so the push service can reach the operator.
        case invalidSubject
    }

    let privateKey: P256.Signing.PrivateKey
    /// How the push service's operator can reach ours, when our messages misbehave: `mailto:` or `https:`.
    public let subject: String

    /// Loads a stored key: the raw 32-byte private scalar, base64url.
    public init(privateKeyBase64URL: String, subject: String) throws {
        guard let raw = Base64URL.decode(privateKeyBase64URL), raw.count == 32,
            let key = try? P256.Signing.PrivateKey(rawRepresentation: raw)
        else { throw Error.invalidPrivateKey }
        try self.init(privateKey: key, subject: subject)
    }

    /// Makes a new key pair; store `privateKeyBase64URL` as a secret, since every subscription is bound to it.
    public static func generate(subject: String) throws -> VAPIDKeys {
        try VAPIDKeys(privateKey: P256.Signing.PrivateKey(), subject: subject)
    }

    init(privateKey: P256.Signing.PrivateKey, subject: String) throws {
        guard subject.hasPrefix("mailto:") || subject.hasPrefix("https:") else { throw Error.invalidSubject }
        self.privateKey = privateKey
        self.subject = subject
    }

    /// The uncompressed public point (65 bytes), base64url: what a page passes as `applicationServerKey` and
    /// what goes in the `k` parameter of the `Authorization` header (RFC 8292 §3.2).
    public var publicKeyBase64URL: String { Base64URL.encode(privateKey.publicKey.x963Representation) }

    /// The private scalar, base64url, for storing a generated key. A secret: never log it.
    public var privateKeyBase64URL: String { Base64URL.encode(privateKey.rawRepresentation) }

    public var description: String { "VAPIDKeys(public: \(publicKeyBase64URL), subject: \(subject))" }
    public var debugDescription: String { description }
}
