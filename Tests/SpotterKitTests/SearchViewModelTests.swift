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

    @Test("a search screen finds groups by name, as the groups directory does")
    func groups() async throws {
        try await LiveServer.run { url, _ in
            // Given a club anyone may find and a family circle nobody may
            let client = SpotterClient(baseURL: url)
            try await client.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            _ = try await client.createGroup(CreateGroupRequest(name: "Harbour Runners", access: .open))
            _ = try await client.createGroup(CreateGroupRequest(name: "Harbour Family", access: .private))
            // When the screen searches groups for "harb"
            let model = await SearchViewModel(client: client, kind: .groups, debounce: .milliseconds(10))
            await MainActor.run {
                model.query = "harb"
                model.queryChanged()
            }
            await model.settle()
            // Then it lists the club, with the viewer's standing, and not the family
            #expect(await model.results.groups.map(\.name) == ["Harbour Runners"])
            #expect(await model.results.groups.first?.standing == .owner)
        }
    }
}
