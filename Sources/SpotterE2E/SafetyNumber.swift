// SpotterE2E composes swift-crypto's primitives (SHA-512); no cryptography is written by hand here.
import Crypto
import Foundation

/// A person's safety number: a short fingerprint of their live devices' signing keys that two people read to
/// each other in person. A new device changes it, which is the point: the server cannot add one unnoticed.
///
/// SHA-512 over `"spotter-e2e-v1 safety\n" ‖ user id ‖ "\n"` and the live devices' signing public keys (65
/// bytes each) sorted bytewise; the first 30 bytes as six 5-byte big-endian integers, each modulo 100,000,
/// printed as five digits and joined by spaces.
///
/// ```swift
/// let number = SafetyNumber(userID: lou, devices: chain.liveDevices)  // "12345 67890 …"
/// ```
public struct SafetyNumber: Sendable, Equatable, CustomStringConvertible {
    /// Six groups of five digits.
    public let groups: [String]

    public init(userID: UUID, signingPublicKeys: [Data]) {
        var hash = SHA512()
        hash.update(data: Context.safetyPrefix(userID: userID))
        for key in signingPublicKeys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            hash.update(data: key)
        }
        let digest = Array(hash.finalize())
        groups = (0..<6).map { group in
            let value = digest[group * 5..<group * 5 + 5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 100_000
            let digits = String(value)
            return String(repeating: "0", count: 5 - digits.count) + digits
        }
    }

    public init(userID: UUID, devices: [DeviceRegistration]) {
        self.init(userID: userID, signingPublicKeys: devices.map(\.signingPublic.x963Representation))
    }

    public var description: String { groups.joined(separator: " ") }
}
