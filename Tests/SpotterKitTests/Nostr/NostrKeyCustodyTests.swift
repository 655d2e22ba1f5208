import Foundation
import SpotterKit
import SpotterNostr
import Testing

/// The person's key on the device: a 0600 file in a 0700 folder on Linux, refused when others can read it,
/// never shown; the signer signs with it and nothing else reads it.
@Suite("Nostr key custody")
struct NostrKeyCustodyTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nostr-keys-\(UUID().uuidString)")
        return folder
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("a generated key is written 0600 in a 0700 folder and read back as the same key")
    func fileModes() async throws {
        // Given a key file in a folder that does not exist yet
        let folder = try Self.folder().appendingPathComponent("nostr")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let path = folder.appendingPathComponent("secret.key").path
        let signer = NostrSigner(store: FileNostrKeyStore(path: path))

        // When a key is generated
        let publicKey = try await signer.generate()

        // Then the file is the owner's alone, in a folder that is the owner's alone, and no temporary file is left
        #expect(try Self.mode(path) == 0o600)
        #expect(try Self.mode(folder.path) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["secret.key"])
        // And another signer over the same file signs as the same key
        let again = NostrSigner(store: FileNostrKeyStore(path: path))
        #expect(try await again.publicKey == publicKey)
    }

    @Test("a key file others can read is refused with a clear error that does not show the key")
    func refusesReadableFile() async throws {
        // Given a key imported from hex, whose file then becomes readable by everyone
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("secret.key").path
        let secret = try NostrSecretKey.generate()
        try await NostrSigner(store: FileNostrKeyStore(path: path)).importKey(secret.hex)
        #expect(chmod(path, 0o644) == 0)

        // When a signer reads it
        let signer = NostrSigner(store: FileNostrKeyStore(path: path))
        let error = await #expect(throws: NostrKeyStoreError.self) {
            _ = try await signer.sign(kind: .textNote, tags: [], content: "hi", createdAt: nil)
        }

        // Then it is refused for being readable, and the message names the file and the fix, not the key
        #expect(error == .readableByOthers(path: path, mode: 0o644))
        let message = "\(error!)"
        #expect(message.contains(path) && message.contains("chmod 600"))
        #expect(!message.contains(secret.hex))
        // And a group-readable file is refused too
        #expect(chmod(path, 0o640) == 0)
        await #expect(throws: NostrKeyStoreError.readableByOthers(path: path, mode: 0o640)) {
            _ = try await NostrSigner(store: FileNostrKeyStore(path: path)).publicKey
        }
    }

    @Test("the signer's events carry valid ids and BIP-340 signatures of the stored key")
    func signsVerifiably() async throws {
        // Given a signer over an imported key (hex, as some clients export it in upper case)
        let secret = try NostrSecretKey.generate()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let signer = NostrSigner(store: FileNostrKeyStore(path: folder.appendingPathComponent("k").path))
        #expect(try await signer.importKey(secret.hex.uppercased()) == secret.publicKey)

        // When it signs a workout record
        let event = try await signer.sign(
            kind: .workoutRecord, tags: [["d", "abc"], ["client", "Spotter"]], content: "Leg day",
            createdAt: 1_700_000_000)

        // Then the event is the key's, its id is NIP-01's, and Schnorr verifies the signature over the id
        #expect(event.pubkey == secret.publicKey)
        #expect(event.hasValidID)
        let signature = try #require(Self.bytes(event.sig))
        #expect(Schnorr.verify(signature: signature, message: event.id.bytes, publicKey: secret.publicKey.bytes))
        // And a signature over another message does not verify
        var other = event.id.bytes
        other[0] ^= 1
        #expect(!Schnorr.verify(signature: signature, message: other, publicKey: secret.publicKey.bytes))
    }

    @Test("descriptions and errors never contain the secret; a bad import does not echo what was given")
    func redacts() async throws {
        // Given a signer holding a key
        let secret = try NostrSecretKey.generate()
        let signer = NostrSigner(store: MemoryNostrKeyStore(secret))
        _ = try await signer.publicKey

        // Then neither the signer, its store, nor the key itself prints the secret
        var dumped = ""
        dump(secret, to: &dumped)
        for text in [
            "\(signer)", String(reflecting: signer), "\(signer.store)", "\(secret)", String(reflecting: secret), dumped,
        ] {
            #expect(!text.contains(secret.hex), "\(text)")
        }
        // And an import of something that is not a key says so without repeating it
        let typo = String(secret.hex.dropLast()) + "g"
        let error = await #expect(throws: NostrSignerError.notASecretKey) { try await signer.importKey(typo) }
        #expect(!"\(error!)".contains(typo))
        // And the key it had is still the one it signs with
        #expect(try await signer.publicKey == secret.publicKey)
    }

    @Test("an nsec imports as the key it encodes")
    func importsNsec() async throws {
        // Given a key written as NIP-19 `nsec`
        let secret = try NostrSecretKey.generate()
        let nsec = try NIP19Entity.secretKey(secret).encode()
        let signer = NostrSigner(store: MemoryNostrKeyStore())

        // When it is imported, then the signer signs as that key
        #expect(try await signer.importKey(nsec) == secret.publicKey)
        // And an npub (a public key) is not taken for a secret
        let npub = try NIP19Entity.publicKey(secret.publicKey).encode()
        await #expect(throws: NostrSignerError.notASecretKey) { try await signer.importKey(npub) }
    }

    @Test("deleting the key removes the file; signing afterwards says there is no key")
    func deletes() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("secret.key").path
        let signer = NostrSigner(store: FileNostrKeyStore(path: path))
        try await signer.generate()

        try await signer.delete()

        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try await !signer.hasKey)
        await #expect(throws: NostrSignerError.noKey) {
            _ = try await signer.sign(kind: .textNote, tags: [], content: "", createdAt: nil)
        }
    }

    static func bytes(_ hex: String) -> [UInt8]? {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            out.append(byte)
            index = next
        }
        return out
    }
}
