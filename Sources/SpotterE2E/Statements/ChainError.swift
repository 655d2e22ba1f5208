// SpotterE2E composes swift-crypto's primitives; no cryptography is written by hand here.
import Foundation

/// Why a chain was refused: which statement (its place, from 0) and what was wrong with it. One bad statement
/// refuses the whole chain; a client then trusts none of its members or devices.
public struct ChainError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// The chain has no statements.
        case empty
        /// The body is not a version-1 statement body (bad JSON, unknown kind, bad id or key).
        case malformedBody(String)
        /// The body names another chain.
        case wrongChain(String)
        /// `seq` is not the statement's place.
        case wrongSeq(expected: Int, found: Int)
        /// `prev` is not the previous statement's hash (or not `null` at seq 0).
        case brokenPrev
        /// A kind that does not belong at this place of this chain (a group kind on a device chain, a `create`
        /// after seq 0, a first statement that is not `add_device`/`create`).
        case wrongKind(String)
        /// The signer is not a device the chains know, or two people's chains hold it with the same key.
        case unknownSigner(UUID)
        /// The signer was not a live device when it signed (revoked, or not yet added).
        case signerNotLive(UUID)
        /// The signature is not the signer's over the body.
        case badSignature
        /// The signer may not make this statement (docs/encryption.md's "signed by" column), or it contradicts
        /// the chain so far (a device added twice, a member added twice, a non-member removed).
        case notAllowed(String)
    }

    public let seq: Int
    public let reason: Reason

    public init(seq: Int, reason: Reason) {
        self.seq = seq
        self.reason = reason
    }

    public var description: String { "statement \(seq) refused: \(reason)" }
}
