import Foundation
import SpotterE2E
import SpotterModels

/// Turning what devices send into what `SpotterE2E` checks, with refusals that name the field.
enum E2EWire {
    /// How far a statement's `at` may be from the server's clock: a revoked device cannot backdate what it
    /// signs past this (docs/encryption.md, "Statements").
    static let clockWindow: Int64 = 300
    /// A wrapped epoch key: enc ‖ ct, 65 + 48 bytes.
    static let wrappedEpochKeySize = 113
    /// A wrapped content key: nonce ‖ ct ‖ tag, 12 + 32 + 16 bytes.
    static let wrappedContentKeySize = 60
    /// The most a sealed body may hold (a post's text, workout and photo keys are far smaller).
    static let maxSealedBody = 64 * 1024
    static let maxRecoveryKit = 4 * 1024
    /// The most photos and thumbnails one sealed post may carry.
    static let maxBlobsPerPost = 8

    static func signed(_ statement: E2EStatement, field: String) throws -> SignedStatement {
        guard let body = bytes(statement.body), !body.isEmpty else {
            throw SpotterError.invalid("\(field).body", "must be the statement's JSON bytes, base64url")
        }
        guard let signature = bytes(statement.signature), signature.count == 64 else {
            throw SpotterError.invalid("\(field).signature", "must be a 64-byte signature (r ‖ s), base64url")
        }
        return SignedStatement(body: body, signature: signature, signer: statement.signer)
    }

    /// Canonical base64url (no padding), else nil.
    static func bytes(_ text: String) -> Data? {
        guard let data = Base64URL.decode(text), Base64URL.encode(data) == text else { return nil }
        return data
    }

    /// A base64url value of exactly `size` bytes, or a 422 naming `field`.
    static func check(_ text: String, size: Int, field: String) throws {
        guard bytes(text)?.count == size else {
            throw SpotterError.invalid(field, "must be \(size) bytes, base64url")
        }
    }

    /// The statement's body, or a 422: bodies are read only once their bytes are known good JSON.
    static func body(_ statement: SignedStatement, field: String) throws -> StatementBody {
        do { return try statement.decodedBody() } catch {
            throw SpotterError.invalid(field, "is not a version 1 statement body")
        }
    }

    /// Refuses a statement made too far from now.
    static func checkTime(_ body: StatementBody, now: Date, field: String) throws {
        guard abs(body.at - Int64(now.timeIntervalSince1970)) <= clockWindow else {
            throw SpotterError.invalid(field, "was made more than \(clockWindow) seconds from the server's time")
        }
    }

    /// A chain refusal as a 422 that says which statement and why.
    static func refusal(_ error: ChainError, field: String, offset: Int = 0) -> SpotterError {
        SpotterError.invalid(field, "statement \(error.seq) is refused: \(error.reason)")
    }

    static func record(_ device: ChainDevice, of user: UserID) -> E2EDeviceRecord {
        E2EDeviceRecord(
            id: device.id, userID: user, name: device.registration.name,
            hpkePublic: Base64URL.encode(device.registration.hpkePublic.x963Representation),
            signingPublic: Base64URL.encode(device.registration.signingPublic.x963Representation),
            recovery: device.registration.recovery, addedAt: device.addedAt, revokedAt: device.revokedAt)
    }
}
