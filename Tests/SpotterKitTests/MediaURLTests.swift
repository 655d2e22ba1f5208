import Foundation
import SpotterKit
import Testing

@Suite("URLs the server gives")
struct MediaURLTests {
    @Test("an avatar's path resolves against the server; a whole URL stays as it is")
    func resolves() async throws {
        let client = SpotterClient(baseURL: URL(string: "https://club.example:8443")!)
        #expect(client.url("/media/0193/small.jpg")?.absoluteString == "https://club.example:8443/media/0193/small.jpg")
        #expect(client.url("https://cdn.example/a.png")?.absoluteString == "https://cdn.example/a.png")
    }
}
