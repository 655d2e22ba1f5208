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

    @Test("results come a page at a time, each once, and what was found shows offline next time")
    func pagesAndKept() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given 25 posts about intervals, and Ana's session
            let network = SwitchableNetwork()
            let session = try SpotterSession(
                baseURL: url, folder: nil, tokens: MemoryTokenStore(), transport: network, retry: .none)
            try await session.client.signUp(
                email: "ana@example.com", username: "ana", password: "correct horse battery")
            for lap in 1...25 {
                _ = try await session.client.createPost(CreatePostRequest(kind: .note, text: "Intervals, lap \(lap)"))
            }
            // When she searches posts for "intervals"
            let model = await SearchViewModel(session: session, kind: .posts)
            await MainActor.run {
                model.query = "intervals"
                model.queryChanged()
            }
            await model.settle()
            // Then the first page shows, with more to come; scrolling to its end brings the rest, each once
            #expect(await model.results.posts.count == 20)
            #expect(await model.hasMore)
            await model.loadMore()
            let all = await model.results.posts.map(\.id)
            #expect(all.count == 25 && Set(all).count == 25)
            #expect(await !model.hasMore)
            await model.loadMore()
            #expect(await model.results.posts.count == 25, "nothing more is asked for")

            // When the search screen opens again with no network, and she types the same words
            network.state = .down
            let offline = await SearchViewModel(session: session, kind: .posts)
            await MainActor.run {
                offline.query = "Intervals "
                offline.queryChanged()
            }
            await offline.settle()
            // Then what was found shows, both pages, and the screen says it is offline
            #expect(await offline.results.posts.map(\.id) == all)
            #expect(await offline.errorMessage == "You're offline. Showing what was loaded.")
        }
    }
}
