// SpotterE2E composes swift-crypto's primitives (P-256 public keys); no cryptography is written by hand here.
import Crypto
import Foundation
import SpotterModels

/// A device's public registration, `{id, name, hpke_public, signing_public, recovery}`: what an `add_device`
/// statement carries and the server lists.
///
/// Decoding checks that both keys are uncompressed P-256 points on the curve, so a chain never holds a key that
/// would fail only later, when a key is wrapped to it.
public struct DeviceRegistration: Sendable, Equatable, Codable {
    public var id: UUID
    public var name: String
    public var hpkePublic: P256.KeyAgreement.PublicKey
    public var signingPublic: P256.Signing.PublicKey
    /// Whether this is a recovery key (its private keys live in the recovery kit, opened by the 24 words).
    public var recovery: Bool

    public init(
        id: UUID, name: String, hpkePublic: P256.KeyAgreement.PublicKey, signingPublic: P256.Signing.PublicKey,
        recovery: Bool
    ) {
        self.id = id
        self.name = name
        self.hpkePublic = hpkePublic
        self.signingPublic = signingPublic
        self.recovery = recovery
    }

    /// From the wire's 65-byte public keys.
    public init(
        id: UUID, name: String, hpkePublic: some DataProtocol, signingPublic: some DataProtocol, recovery: Bool
    )
        throws
    {
        guard hpkePublic.count == 65, signingPublic.count == 65 else { throw E2EError.invalidPublicKey }
        do {
            self.init(
                id: id, name: name, hpkePublic: try P256.KeyAgreement.PublicKey(x963Representation: Data(hpkePublic)),
                signingPublic: try P256.Signing.PublicKey(x963Representation: Data(signingPublic)), recovery: recovery)
        } catch {
            throw E2EError.invalidPublicKey
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.recovery == rhs.recovery
            && lhs.hpkePublic.x963Representation == rhs.hpkePublic.x963Representation
            && lhs.signingPublic.x963Representation == rhs.signingPublic.x963Representation
    }

    enum CodingKeys: String, CodingKey {
        case id, name, recovery
        case hpkePublic = "hpke_public"
        case signingPublic = "signing_public"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(
                id: try WireCoding.decodeUUID(container, .id), name: try container.decode(String.self, forKey: .name),
                hpkePublic: try WireCoding.decodeBytes(container, .hpkePublic),
                signingPublic: try WireCoding.decodeBytes(container, .signingPublic),
                recovery: try container.decode(Bool.self, forKey: .recovery))
        } catch let error as E2EError {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "device keys: \(error)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(UUIDText.format(id), forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(Base64URL.encode(hpkePublic.x963Representation), forKey: .hpkePublic)
        try container.encode(Base64URL.encode(signingPublic.x963Representation), forKey: .signingPublic)
        try container.encode(recovery, forKey: .recovery)
    }
}
