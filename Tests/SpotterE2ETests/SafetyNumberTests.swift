import Crypto
import Foundation
import SpotterE2E
import Testing

@Suite("Safety numbers")
struct SafetyNumberTests {
    @Test("six five-digit groups of SHA-512 over the prefix, user id and sorted signing keys")
    func layout() throws {
        // Given a user and two signing keys given in either order
        let user = IDs.group
        let keys = [Data([0x04] + Array(repeating: 0xbb, count: 64)), Data([0x04] + Array(repeating: 0xaa, count: 64))]
        // When the number is computed by hand from the spec
        var input = Data("spotter-e2e-v1 safety\n\(user.uuidString.lowercased())\n".utf8)
        input += keys[1] + keys[0]
        let digest = Array(SHA512.hash(data: input))
        let expected = (0..<6).map { group in
            String(
                format: "%05llu", digest[group * 5..<group * 5 + 5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 100_000
            )
        }
        // Then it is the module's, whatever the keys' order
        #expect(SafetyNumber(userID: user, signingPublicKeys: keys).groups == expected)
        #expect(
            SafetyNumber(userID: user, signingPublicKeys: keys.reversed()).description
                == expected.joined(separator: " "))
        #expect(SafetyNumber(userID: user, signingPublicKeys: keys).description.count == 35)
    }

    @Test("a new device changes the safety number")
    func newDevice() throws {
        var lou = try Person.withFirstDevice()
        let before = SafetyNumber(userID: lou.id, devices: try lou.verified().liveDevices)
        try lou.addDevice(name: "laptop")
        let after = SafetyNumber(userID: lou.id, devices: try lou.verified().liveDevices)
        #expect(before != after)
        #expect(after.groups.allSatisfy { $0.count == 5 && $0.allSatisfy(\.isNumber) })
    }
}
