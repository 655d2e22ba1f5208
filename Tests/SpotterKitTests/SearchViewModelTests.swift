import Foundation
import SpotterKit
import SpotterModels
import Testing

@Suite("Search view model")
struct SearchViewModelTests {
    @Test("typing fast sends one search, after the pause, for the last text")
    func debounce() async throws {
        try await LiveServer.run { url, _ in
            let client = SpotterClient(baseURL: url)
            for name in ["anabel", "andrea", "bruno"] {
                try await client.signUp(email: "\(name)@example.com", username: name, password: "correct horse battery")
            }
            let model = await SearchViewModel(client: client, debounce: .milliseconds(150))
            for text in ["a", "an", "and", "andr"] {
                await MainActor.run {
                    model.query = text
                    model.queryChanged()
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            await model.settle()
            #expect(await model.requestsSent == 1)
            #expect(await model.results.users.map(\.username) == ["andrea"])
            await MainActor.run {
                model.query = "  "
                model.queryChanged()
            }
            #expect(await model.results.users.isEmpty)
        }
    }
}
