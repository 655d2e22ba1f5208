import Foundation
import SpotterCore
import SpotterKit
import SpotterModels
import Testing

/// The safety rule reaches an app through the SDK as a refusal naming `child_ids`, straight or through the
/// outbox, and only a private group takes a post for a child.
@Suite("Posting for a child from SpotterKit")
struct ChildPostTests {
    @Test("a post for a child is refused anywhere but a private group, straight and through the outbox")
    func onlyPrivateGroups() async throws {
        try await LiveServer.runWithStorage { url, clock, storage in
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            let lou = try await ana.createChild(CreateChildProfileRequest(name: "Lou", birthYear: 2019))
            #expect(try await ana.children().map(\.name) == ["Lou"])
            // Ana's family and her club (made through the service: the groups' SDK calls are tested elsewhere)
            let owner = try #require(try await storage.accounts.find(username: "ana"))
            let groups = GroupService(storage: storage, clock: clock)
            let family = try await groups.create(CreateGroupRequest(name: "Family", access: .private), by: owner)
            let club = try await groups.create(CreateGroupRequest(name: "Club", access: .open), by: owner)

            func refusal(_ request: CreatePostRequest) async -> [String]? {
                do {
                    _ = try await ana.createPost(request)
                    return nil
                } catch let error as SpotterClientError {
                    return error.problem?.errors?.map(\.field)
                } catch {
                    return ["unexpected \(error)"]
                }
            }
            #expect(
                await refusal(CreatePostRequest(kind: .note, text: "Her first 5k", childIDs: [lou.id])) == ["child_ids"]
            )
            #expect(
                await refusal(
                    CreatePostRequest(kind: .note, text: "Her first 5k", groupID: club.id, childIDs: [lou.id]))
                    == ["child_ids"])
            // Through the outbox the refusal is for good, kept with the server's reason
            let queue = try ActionQueue(path: nil, client: ana)
            try await queue.enqueue(
                .createPost(
                    CreatePostRequest(kind: .note, text: "Her first 5k", visibility: .followers, childIDs: [lou.id])))
            await queue.drain()
            let failed = try await queue.failed
            #expect(failed.count == 1)
            #expect(failed.first?.failure?.contains("private group") == true)
            // The family takes it, and names Lou
            let post = try await ana.createPost(
                CreatePostRequest(kind: .note, text: "Her first 5k", groupID: family.id, childIDs: [lou.id]))
            #expect(post.children == [ChildSummary(id: lou.id, name: "Lou")])
            #expect(post.group?.name == "Family")
        }
    }
}
