import Foundation
import SpotterE2E
import SpotterKit
import SpotterModels
import Testing

/// A device's private keys on Linux: a 0600 file in a 0700 folder, read back as the same keys, refused when
/// others can read it, and never shown.
@Suite("Device key store")
struct DeviceKeyStoreTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    static func identity(_ user: UserID = .generate()) -> DeviceIdentity {
        DeviceIdentity(userID: user, deviceID: UUIDv7.make(), name: "Ana's laptop", keys: DeviceKeys())
    }

    @Test("an identity is written 0600 in a 0700 folder and read back with the same keys")
    func roundTrip() async throws {
        // Given a store over a folder that does not exist yet
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = parent.appendingPathComponent("e2e").path
        let files = FileDeviceKeyStore(directory: folder)
        let store: any DeviceKeyStore = files
        let identity = Self.identity()

        // When this device's identity is saved
        try await store.save(identity)

        // Then the file and folder are the owner's alone, and nothing else is left there
        let path = files.path(for: identity.userID)
        #expect(try Self.mode(path) == 0o600)
        #expect(try Self.mode(folder) == 0o700)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder) == [
                URL(fileURLWithPath: path).lastPathComponent
            ])
        // And another store over the folder reads the same device and keys
        let again: any DeviceKeyStore = FileDeviceKeyStore(directory: folder)
        let loaded = try #require(try await again.load(for: identity.userID))
        #expect(loaded.deviceID == identity.deviceID && loaded.name == identity.name)
        #expect(loaded.keys.hpkePrivateRaw == identity.keys.hpkePrivateRaw)
        #expect(loaded.keys.signingPrivateRaw == identity.keys.signingPrivateRaw)
        #expect(loaded.registration == identity.registration)
        // And another person has no identity here, and a deleted one is gone
        #expect(try await store.load(for: .generate()) == nil)
        try await store.delete(for: identity.userID)
        #expect(try await store.load(for: identity.userID) == nil)
    }

    @Test("a key file others can read is refused, and neither errors nor descriptions show a key")
    func refusesReadableFile() async throws {
        // Given a saved identity whose file became readable by the group
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = FileDeviceKeyStore(directory: folder.path)
        let store: any DeviceKeyStore = files
        let identity = Self.identity()
        try await store.save(identity)
        let path = files.path(for: identity.userID)
        #expect(chmod(path, 0o640) == 0)

        // When it is read
        let error = await #expect(throws: DeviceKeyStoreError.self) { try await store.load(for: identity.userID) }

        // Then it is refused for being readable, and no text shows a private key
        #expect(error == .readableByOthers(path: path, mode: 0o640))
        let secrets = [identity.keys.hpkePrivateRaw, identity.keys.signingPrivateRaw].map { Base64URL.encode($0) }
        for text in ["\(error!)", "\(identity)", String(describing: identity.registration)] {
            #expect(!secrets.contains { text.contains($0) })
        }
    }
}
