import Crypto
import Foundation
import SpotterE2E
import SpotterModels

/// Makes `Fixture` from fresh keys, run once by `SPOTTER_E2E_WRITE_FIXTURE=1 swift test --filter FixtureTests`.
enum FixtureGenerator {
    static let at: Int64 = 1_764_000_000

    static func make() throws -> Fixture {
        let device = DeviceKeys()
        let deviceID = UUID()
        let group = UUID()
        let epoch: UInt32 = 3
        let epochKey = EpochKey()
        let wrapped = try EpochKeyWrap.seal(epochKey, to: device.hpke.publicKey, groupID: group, epoch: epoch)
        let post = UUID()
        let contentKey = ContentKey()
        let wrappedContentKey = try ContentKeyWrap.seal(
            contentKey, with: epochKey, groupID: group, epoch: epoch, itemID: post)
        let postText =
            #"{"v":1,"text":"Parkrun with Lou 🏃‍♀️ — 5 km","workout":null,"children":[{"id":""#
            + UUIDText.format(UUID()) + #"","name":"Lou"}],"media":[]}"#
        let sealedPost = try PostBodyCipher.seal(Data(postText.utf8), with: contentKey, groupID: group, postID: post)
        let blobKey = ContentKey()
        let prefix: [UInt8] = (0..<7).map { _ in UInt8.random(in: 0...255) }
        let blobPlaintext = pattern(150_000)
        let blob = try BlobCipher.seal(blobPlaintext, with: blobKey, header: BlobHeader(noncePrefix: prefix))
        let (deviceChain, alice, aliceLaptop) = try makeDeviceChain()
        let groupChain = try makeGroupChain(alice: alice, aliceLaptop: aliceLaptop, aliceChain: deviceChain)
        let aliceVerified = try DeviceChain.verify(deviceChain.statements, userID: alice)
        let safetyKeys = aliceVerified.liveDevices.map(\.signingPublic.x963Representation) + [device.signingPublic]
        let recoveryUser = UUID()
        let secret = RecoverySecret()
        let recoveryKeys = DeviceKeys()
        let kit = try RecoveryKit.seal(recoveryKeys, secret: secret, userID: recoveryUser)
        return Fixture(
            description: "SpotterE2E v1 (docs/encryption.md), made by Tests/SpotterE2ETests/FixtureGenerator.swift. "
                + "Binary values are base64url without padding; ids are lowercase UUIDs. The blob's plaintext is "
                + "150000 bytes where byte i is i % 251.",
            device: .init(id: UUIDText.format(deviceID), name: "Lou's phone", keys: .init(device)),
            epochKey: .init(
                groupID: UUIDText.format(group), epoch: epoch,
                info: "spotter-e2e-v1 epoch-key\n\(UUIDText.format(group))\n\(epoch)",
                key: Base64URL.encode(epochKey.rawValue), wrapped: Base64URL.encode(wrapped),
                wrappingKey: Base64URL.encode(epochKey.wrappingKey.withUnsafeBytes { Data($0) })),
            contentKey: .init(
                itemID: UUIDText.format(post), key: Base64URL.encode(contentKey.rawValue),
                wrapped: Base64URL.encode(wrappedContentKey),
                aad: "spotter-e2e-v1 content-key\n\(UUIDText.format(group))\n\(epoch)\n\(UUIDText.format(post))"),
            post: .init(
                postID: UUIDText.format(post), plaintext: postText,
                aad: "spotter-e2e-v1 post\n\(UUIDText.format(group))\n\(UUIDText.format(post))",
                sealed: Base64URL.encode(sealedPost)),
            blob: .init(
                contentKey: Base64URL.encode(blobKey.rawValue), plaintextPattern: "byte i = i % 251",
                plaintextLength: blobPlaintext.count, plaintextSHA256: hex(SHA256.hash(data: blobPlaintext)),
                noncePrefix: Base64URL.encode(Data(prefix)), sealedLength: blob.count, sealed: Base64URL.encode(blob)),
            deviceChain: deviceChain,
            groupChain: groupChain,
            safetyNumber: .init(
                userID: UUIDText.format(alice), signingPublicKeys: safetyKeys.map(Base64URL.encode),
                number: SafetyNumber(userID: alice, signingPublicKeys: safetyKeys).description),
            recovery: .init(
                userID: UUIDText.format(recoveryUser), entropy: Base64URL.encode(secret.entropy),
                words: secret.words.joined(separator: " "), keys: .init(recoveryKeys),
                kitPlaintext: String(decoding: try RecoveryKit.json(recoveryKeys), as: UTF8.self),
                kit: Base64URL.encode(kit)))
    }

    /// Alice's phone adds itself, adds her laptop, and the laptop revokes the phone.
    static func makeDeviceChain() throws -> (Fixture.DeviceChainCase, UUID, Person.Device) {
        var alice = Person()
        alice.clock = at
        let phone = Person.device(name: "Alice's phone")
        try alice.append(.addDevice(phone.registration), by: phone)
        alice.devices.append(phone)
        let laptop = try alice.addDevice(name: "Alice's laptop", by: phone)
        try alice.append(.revokeDevice(phone.registration.id), by: laptop)
        let verified = try alice.verified()
        let devices = [phone, laptop].map {
            Fixture.Device(id: UUIDText.format($0.registration.id), name: $0.registration.name, keys: .init($0.keys))
        }
        return (
            .init(
                userID: UUIDText.format(alice.id), devices: devices, statements: alice.chain,
                liveDeviceIDs: verified.liveDevices.map { UUIDText.format($0.id) }, head: verified.head),
            alice.id, laptop
        )
    }

    /// Alice's laptop creates the group, adds Bob, and removes him.
    static func makeGroupChain(
        alice: UUID, aliceLaptop: Person.Device, aliceChain: Fixture.DeviceChainCase
    ) throws
        -> Fixture.GroupChainCase
    {
        var bob = try Person.withFirstDevice(name: "Bob's phone")
        bob.clock = at
        var group = GroupBuilder()
        group.clock = at + 100
        try group.append(.create(user: alice, history: true), by: aliceLaptop)
        try group.append(.add(user: bob.id, role: .member), by: aliceLaptop)
        try group.append(.remove(user: bob.id), by: aliceLaptop)
        let chains = [try DeviceChain.verify(aliceChain.statements, userID: alice), try bob.verified()]
        let verified = try GroupChain.verify(group.chain, groupID: group.id, deviceChains: chains)
        return .init(
            groupID: UUIDText.format(group.id),
            deviceChains: [UUIDText.format(alice): aliceChain.statements, UUIDText.format(bob.id): bob.chain],
            statements: group.chain,
            members: verified.members.map { .init(user: UUIDText.format($0.userID), role: $0.role.rawValue) },
            head: verified.head)
    }
}
