import Crypto
import Foundation
import SpotterE2E
import Testing

@Suite("Device chains")
struct DeviceChainTests {
    @Test("a chain of adds and a revocation gives the live devices, its head and length")
    func liveDevices() throws {
        // Given a phone, a laptop it adds, a recovery key the laptop adds, and the phone revoked by the laptop
        var lou = try Person.withFirstDevice()
        let laptop = try lou.addDevice(name: "laptop")
        let recovery = try lou.addDevice(name: "recovery", recovery: true, by: laptop)
        try lou.append(.revokeDevice(lou.devices[0].registration.id), by: laptop)
        // When the chain is verified
        let chain = try lou.verified()
        // Then the laptop and the recovery key are live, the phone is known but revoked
        #expect(chain.liveDevices == [laptop.registration, recovery.registration])
        #expect(chain.devices.count == 3)
        #expect(chain.device(lou.devices[0].registration.id)?.isLive == false)
        #expect(chain.length == 4)
        #expect(chain.head == lou.chain[3].hash)
    }

    @Test("a statement travels as base64url body and signature, and its body says prev: null at seq 0")
    func wireForm() throws {
        let lou = try Person.withFirstDevice()
        let statement = lou.chain[0]
        let json = try JSONEncoder().encode(statement)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: String])
        #expect(Set(object.keys) == ["body", "signature", "signer"])
        #expect(!object["body"]!.contains("=") && !object["signature"]!.contains("+"))
        #expect(try JSONDecoder().decode(SignedStatement.self, from: json) == statement)
        #expect(statement.signature.count == 64)
        let body = try #require(try JSONSerialization.jsonObject(with: statement.body) as? [String: Any])
        #expect(body["prev"] is NSNull)
        #expect(body["v"] as? Int == 1)
        #expect(body["kind"] as? String == "add_device")
        #expect(body["chain"] as? String == "device:\(lou.id.uuidString.lowercased())")
        let device = try #require(body["device"] as? [String: Any])
        #expect(Set(device.keys) == ["id", "name", "hpke_public", "signing_public", "recovery"])
        #expect(statement.hash == hex(SHA256.hash(data: statement.body)))
    }

    @Test("a forged signature is refused")
    func forgedSignature() throws {
        var lou = try Person.withFirstDevice()
        try lou.addDevice(name: "laptop")
        lou.chain[1].signature[10] ^= 0x01
        #expect(throws: ChainError(seq: 1, reason: .badSignature)) { try lou.verified() }
        // And a body signed by a key that is not the signer's
        var other = try Person.withFirstDevice()
        other.chain[0] = try SignedStatement(
            signing: other.chain[0].body, by: other.devices[0].registration.id, with: P256.Signing.PrivateKey())
        #expect(throws: ChainError(seq: 0, reason: .badSignature)) { try other.verified() }
    }

    @Test("a broken prev link is refused")
    func brokenPrev() throws {
        var lou = try Person.withFirstDevice()
        let laptop = Person.device(name: "laptop")
        let body = StatementBody(
            chain: .device(user: lou.id), seq: 1, prev: String(repeating: "0", count: 64), at: 1,
            kind: .addDevice(laptop.registration))
        lou.chain.append(try lou.devices[0].signer.sign(body))
        #expect(throws: ChainError(seq: 1, reason: .brokenPrev)) { try lou.verified() }
    }

    @Test("a skipped seq is refused")
    func skippedSeq() throws {
        var lou = try Person.withFirstDevice()
        let body = StatementBody(
            chain: .device(user: lou.id), seq: 2, prev: lou.chain[0].hash, at: 1,
            kind: .addDevice(Person.device(name: "laptop").registration))
        lou.chain.append(try lou.devices[0].signer.sign(body))
        #expect(throws: ChainError(seq: 1, reason: .wrongSeq(expected: 1, found: 2))) { try lou.verified() }
    }

    @Test("a device added by a signature of the new device only is refused")
    func selfAddedDevice() throws {
        var lou = try Person.withFirstDevice()
        let intruder = Person.device(name: "server's device")
        try lou.append(.addDevice(intruder.registration), by: intruder)
        #expect(throws: ChainError(seq: 1, reason: .unknownSigner(intruder.registration.id))) { try lou.verified() }
    }

    @Test("the first statement must add the device that signs it")
    func firstStatement() throws {
        var lou = Person()
        let phone = Person.device(name: "phone")
        let other = Person.device(name: "other")
        try lou.append(.addDevice(phone.registration), by: other)
        #expect(throws: ChainError(seq: 0, reason: .notAllowed("the first device signs itself"))) { try lou.verified() }
        var revoking = Person()
        try revoking.append(.revokeDevice(phone.registration.id), by: phone)
        #expect(throws: ChainError(seq: 0, reason: .wrongKind("revoke_device"))) { try revoking.verified() }
        #expect(throws: ChainError(seq: 0, reason: .empty)) { try DeviceChain.verify([], userID: UUID()) }
    }

    @Test("a revoked device signs nothing more")
    func revokedSigner() throws {
        var lou = try Person.withFirstDevice()
        let laptop = try lou.addDevice(name: "laptop")
        try lou.append(.revokeDevice(laptop.registration.id), by: lou.devices[0])
        try lou.append(.addDevice(Person.device(name: "tablet").registration), by: laptop)
        #expect(throws: ChainError(seq: 3, reason: .signerNotLive(laptop.registration.id))) { try lou.verified() }
    }

    @Test("a device does not revoke itself, but the recovery device may")
    func selfRevocation() throws {
        var lou = try Person.withFirstDevice()
        let laptop = try lou.addDevice(name: "laptop")
        var selfRevoked = lou
        try selfRevoked.append(.revokeDevice(laptop.registration.id), by: laptop)
        #expect(throws: ChainError.self) { try selfRevoked.verified() }
        let recovery = try lou.addDevice(name: "recovery", recovery: true)
        try lou.append(.revokeDevice(recovery.registration.id), by: recovery)
        #expect(try lou.verified().liveDevices.map(\.id) == [lou.devices[0].registration.id, laptop.registration.id])
    }

    @Test("revoking an unknown or revoked device, or adding a device twice, is refused")
    func contradictions() throws {
        var lou = try Person.withFirstDevice()
        let laptop = try lou.addDevice(name: "laptop")
        var unknown = lou
        try unknown.append(.revokeDevice(UUID()), by: laptop)
        #expect(throws: ChainError.self) { try unknown.verified() }
        var twice = lou
        try twice.append(.revokeDevice(laptop.registration.id), by: lou.devices[0])
        try twice.append(.revokeDevice(laptop.registration.id), by: lou.devices[0])
        #expect(throws: ChainError.self) { try twice.verified() }
        var readded = lou
        try readded.append(.addDevice(laptop.registration), by: lou.devices[0])
        #expect(throws: ChainError.self) { try readded.verified() }
    }

    @Test("a statement of another chain or a group's kind is refused")
    func wrongChainOrKind() throws {
        let lou = try Person.withFirstDevice()
        #expect(throws: ChainError.self) { try DeviceChain.verify(lou.chain, userID: UUID()) }
        var grouped = lou
        try grouped.append(.add(user: UUID(), role: .member), by: lou.devices[0])
        #expect(throws: ChainError(seq: 1, reason: .wrongKind("add"))) { try grouped.verified() }
    }

    @Test("a client notices a chain that came back shorter or rewritten")
    func rollback() throws {
        // Given the chain a client saw (two statements) and the same chain grown by one
        var lou = try Person.withFirstDevice()
        try lou.addDevice(name: "laptop")
        let seen = try lou.verified()
        try lou.addDevice(name: "tablet")
        let grown = try lou.verified()
        // Then the grown chain extends it, a shorter one or another history does not
        #expect(grown.extends(length: seen.length, head: seen.head))
        #expect(grown.extends(length: 0, head: ""))
        let shorter = try DeviceChain.verify(Array(lou.chain.prefix(1)), userID: lou.id)
        #expect(!shorter.extends(length: seen.length, head: seen.head))
        var other = lou
        other.chain.removeLast(2)
        try other.addDevice(name: "server's pick")
        #expect(!(try other.verified()).extends(length: seen.length, head: seen.head))
    }

    @Test("an epoch key wrapped to each live device opens on each, by device id")
    func wrapToEach() throws {
        var lou = try Person.withFirstDevice()
        try lou.addDevice(name: "laptop")
        let epochKey = EpochKey()
        let wrapped = try EpochKeyWrap.seal(
            epochKey, toEach: try lou.verified().liveDevices, groupID: IDs.group, epoch: 0)
        #expect(wrapped.count == 2)
        for device in lou.devices {
            let mine = try #require(wrapped[device.registration.id])
            #expect(
                try EpochKeyWrap.open(mine, with: device.keys.hpke, groupID: IDs.group, epoch: 0).rawValue
                    == epochKey.rawValue)
        }
    }
}
