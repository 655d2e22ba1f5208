// SpotterE2E composes swift-crypto's primitives (ECDSA P-256/SHA-256, SHA-256); no cryptography is written by
// hand here.
import Crypto
import Foundation
import SpotterModels

/// A statement of a device chain or a group chain, `{body, signature, signer}`.
///
/// `body` is the JSON's exact bytes, and the signature covers those bytes, so no canonical JSON is needed: a
/// reader parses the bytes it verified, never a re-encoding. The signature is ECDSA P-256/SHA-256 over
/// `"spotter-e2e-v1 statement\n" ‖ body`, `r ‖ s` (64 bytes, WebCrypto's form), by the device `signer`.
public struct SignedStatement: Sendable, Equatable, Codable {
    public var body: Data
    public var signature: Data
    public var signer: UUID

    public init(body: Data, signature: Data, signer: UUID) {
        self.body = body
        self.signature = signature
        self.signer = signer
    }

    /// Signs `body`'s bytes with the signer device's signing key.
    public init(signing body: Data, by signer: UUID, with key: P256.Signing.PrivateKey) throws {
        let signature = try key.signature(for: Context.statementPrefix + body)
        self.init(body: body, signature: signature.rawRepresentation, signer: signer)
    }

    /// Lowercase hex SHA-256 of the body's bytes: what the next statement's `prev` names.
    public var hash: String { Hex.encode(SHA256.hash(data: body)) }

    /// Whether `signature` is `key`'s over this body.
    public func isSigned(by key: P256.Signing.PublicKey) -> Bool {
        guard signature.count == 64, let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
        else { return false }
        return key.isValidSignature(ecdsa, for: Context.statementPrefix + body)
    }

    /// The body, parsed from the signed bytes; refused when a key appears twice in one object, which parsers
    /// read differently (see `DuplicateKeys`).
    public func decodedBody() throws -> StatementBody {
        let decoded = try JSONDecoder().decode(StatementBody.self, from: body)
        if let key = DuplicateKeys.first(in: body) {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "duplicate key \(key)"))
        }
        return decoded
    }

    enum CodingKeys: String, CodingKey {
        case body, signature, signer
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        body = try WireCoding.decodeBytes(container, .body)
        signature = try WireCoding.decodeBytes(container, .signature)
        signer = try WireCoding.decodeUUID(container, .signer)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Base64URL.encode(body), forKey: .body)
        try container.encode(Base64URL.encode(signature), forKey: .signature)
        try container.encode(UUIDText.format(signer), forKey: .signer)
    }
}

/// A device that signs statements: its id and signing key.
///
/// ```swift
/// let signer = StatementSigner(deviceID: phone.id, key: phoneKeys.signing)
/// let first = try signer.sign(.addDevice(phone), on: .device(user: me), after: nil)
/// let second = try signer.sign(.addDevice(laptop), on: .device(user: me), after: first)
/// ```
public struct StatementSigner: Sendable {
    public let deviceID: UUID
    public let key: P256.Signing.PrivateKey

    public init(deviceID: UUID, key: P256.Signing.PrivateKey) {
        self.deviceID = deviceID
        self.key = key
    }

    /// Signs `body` as given.
    public func sign(_ body: StatementBody) throws -> SignedStatement {
        try SignedStatement(signing: try StatementBody.encoder.encode(body), by: deviceID, with: key)
    }

    /// Signs the statement that follows `previous` on `chain` (seq 0 with `prev: null` when there is none).
    public func sign(
        _ kind: StatementKind, on chain: ChainID, after previous: SignedStatement?, at: Int64? = nil
    )
        throws -> SignedStatement
    {
        let seq = try previous.map { try $0.decodedBody().seq + 1 } ?? 0
        return try sign(
            StatementBody(
                chain: chain, seq: seq, prev: previous?.hash, at: at ?? Int64(Date().timeIntervalSince1970), kind: kind)
        )
    }
}
