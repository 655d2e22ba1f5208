import CSecp256k1
import Foundation

/// BIP-340 Schnorr signatures through Debian's libsecp256k1.
enum Secp256k1 {
    /// One context for the process: after creation (and randomisation) libsecp256k1 contexts are safe to use
    /// from many threads at once for signing and verifying.
    nonisolated(unsafe) static let context: OpaquePointer = {
        let context = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE))!
        var seed = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for index in seed.indices { seed[index] = generator.next() }
        _ = secp256k1_context_randomize(context, seed)
        return context
    }()

    static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, publicKey.count == 32 else { return false }
        var key = secp256k1_xonly_pubkey()
        guard secp256k1_xonly_pubkey_parse(context, &key, publicKey) == 1 else { return false }
        return secp256k1_schnorrsig_verify(context, signature, message, message.count, &key) == 1
    }
}

/// A person's secret key. It lives on their device (SpotterKit, the terminal client) and never on the server.
public struct NostrSecretKey: Sendable {
    private let bytes: [UInt8]
    public let publicKey: NostrPublicKey

    /// A key from its 32 bytes; throws when they are not a valid secp256k1 secret (zero or ≥ the group order).
    public init(bytes: [UInt8]) throws {
        guard bytes.count == 32 else { throw NostrKeyError.invalidSecretKey }
        var keypair = secp256k1_keypair()
        guard secp256k1_keypair_create(Secp256k1.context, &keypair, bytes) == 1 else {
            throw NostrKeyError.invalidSecretKey
        }
        var xonly = secp256k1_xonly_pubkey()
        var serialized = [UInt8](repeating: 0, count: 32)
        guard secp256k1_keypair_xonly_pub(Secp256k1.context, &xonly, nil, &keypair) == 1,
            secp256k1_xonly_pubkey_serialize(Secp256k1.context, &serialized, &xonly) == 1
        else { throw NostrKeyError.invalidSecretKey }
        self.bytes = bytes
        self.publicKey = NostrPublicKey(unchecked: Hex.encode(serialized))
    }

    /// A key from 64 hex digits.
    public init(hex: String) throws {
        guard let bytes = Hex.decode(hex, strict: false) else { throw NostrKeyError.invalidSecretKey }
        try self.init(bytes: bytes)
    }

    /// A new random key from the system's secure generator.
    public static func generate() throws -> NostrSecretKey {
        var generator = SystemRandomNumberGenerator()
        while true {
            let candidate = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if let key = try? NostrSecretKey(bytes: candidate) { return key }
        }
    }

    /// The secret's 64 hex digits: for writing it to the owner's key file, never to a log.
    public var hex: String { Hex.encode(bytes) }
    public var rawBytes: [UInt8] { bytes }

    /// Signs a message (an event id: 32 bytes) with fresh auxiliary randomness, as BIP-340 recommends.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let aux = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return try sign(message, auxiliaryRandomness: aux)
    }

    /// Signs with the given auxiliary randomness: BIP-340's test vectors fix it. Messages of any length are
    /// signed as BIP-340 (since 2022) defines; Nostr only ever signs 32-byte ids.
    ///
    /// The signature is verified before it is returned, as BIP-340 advises, so a fault while signing (which
    /// could leak the key through a wrong signature) throws instead.
    public func sign(_ message: [UInt8], auxiliaryRandomness aux: [UInt8]) throws -> [UInt8] {
        guard aux.count == 32 else { throw NostrKeyError.signingFailed }
        var keypair = secp256k1_keypair()
        guard secp256k1_keypair_create(Secp256k1.context, &keypair, bytes) == 1 else {
            throw NostrKeyError.invalidSecretKey
        }
        var signature = [UInt8](repeating: 0, count: 64)
        var aux = aux
        let signed = aux.withUnsafeMutableBytes { auxBytes in
            var extra = secp256k1_schnorrsig_extraparams(
                magic: (0xda, 0x6f, 0xb3, 0x8c), noncefp: nil, ndata: auxBytes.baseAddress)
            return secp256k1_schnorrsig_sign_custom(
                Secp256k1.context, &signature, message, message.count, &keypair, &extra)
        }
        guard signed == 1, Secp256k1.verify(signature: signature, message: message, publicKey: publicKey.bytes)
        else { throw NostrKeyError.signingFailed }
        return signature
    }
}

/// Checks a BIP-340 signature of any message length over an x-only key given as bytes: what the test vectors
/// exercise.
///
/// <https://github.com/bitcoin/bips/blob/master/bip-0340.mediawiki>
public enum Schnorr {
    public static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        Secp256k1.verify(signature: signature, message: message, publicKey: publicKey)
    }
}

/// Why a secret key could not be made or used: it is not in 1..<n of secp256k1, or signing failed.
public enum NostrKeyError: Error, Sendable, Equatable {
    case invalidSecretKey
    case signingFailed
}

extension NostrSecretKey: Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public static func == (lhs: NostrSecretKey, rhs: NostrSecretKey) -> Bool {
        // Without an early exit, so the time taken does not say where two secrets first differ.
        zip(lhs.bytes, rhs.bytes).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Names the public key only, so a key printed into a log or a failed test's output keeps its secret.
    public var description: String { "NostrSecretKey(publicKey: \(publicKey))" }
    public var debugDescription: String { description }
}
