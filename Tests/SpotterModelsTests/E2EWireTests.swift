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
}
