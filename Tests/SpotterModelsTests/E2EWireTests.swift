import Foundation
import SpotterModels
import Testing

@Suite("Encrypted groups' wire")
struct E2EWireTests {
    @Test("ids go out lowercase, as the spec and the browser read them, and capitals still come in")
    func lowercaseIDs() throws {
        let id = try #require(UUID(uuidString: "0193A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B"))
        let encoder = JSONEncoder()
        let texts = try [
            encoder.encode(E2EStatement(body: "e30", signature: "sig", signer: id)),
            encoder.encode(E2EDeviceKey(deviceID: id, key: "key")),
            encoder.encode(E2EEpochKey(deviceID: id, epoch: 1, key: "key")),
            encoder.encode(SealedContent(epoch: 0, key: "key", body: "body", blobIDs: [id])),
            encoder.encode(SealedBlobUpload(id: id, uploadURL: "u", uploadHeaders: [:], expiresAt: Date())),
        ].map { String(decoding: $0, as: UTF8.self) }
        for text in texts {
            #expect(text.contains("0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b") && !text.contains("0193A1B2"), "\(text)")
        }
        let upper = #"{"body":"e30","signature":"sig","signer":"0193A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B"}"#
        #expect(try JSONDecoder().decode(E2EStatement.self, from: Data(upper.utf8)).signer == id)
    }

    @Test("a group's key state names the roles due, and one from an older server, without them, reads as none due")
    func rolesDue() throws {
        // Given a state as today's server writes it, and one as a server from before roles_due wrote it
        let user = try #require(UserID("0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"))
        let now =
            #"{"awaiting_keys":[],"chain":{"length":3},"epoch":0,"roles_due":[{"role":"owner","#
            + #""user_id":"0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"}],"rotation_due":false}"#
        let older = #"{"awaiting_keys":[],"chain":{"length":3},"epoch":0,"rotation_due":false}"#
        // When a client reads them
        let decoder = WireJSON.decoder()
        let current = try decoder.decode(E2EGroupState.self, from: Data(now.utf8))
        let old = try decoder.decode(E2EGroupState.self, from: Data(older.utf8))
        // Then the first names who should be owner by the chain too, and the second nobody
        #expect(current.rolesDue == [E2ERoleDue(userID: user, role: .owner)])
        #expect(old.rolesDue.isEmpty && old.epoch == 0 && old.chain.length == 3)
        // And what the server writes is what was read
        #expect(String(decoding: try WireJSON.encoder().encode(current), as: UTF8.self) == now)
    }
}
