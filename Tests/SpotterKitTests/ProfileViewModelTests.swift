import Foundation
import SpotterKit
import SpotterModels
import Testing

@Suite("Profile view model")
struct ProfileViewModelTests {
    @Test("follow shows at once, as Requested for a private account; a refusal changes it back")
    func follow() async throws {
        try await LiveServer.run { url, _ in
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            let cem = SpotterClient(baseURL: url)
            try await cem.signUp(email: "cem@example.com", username: "cem", password: "correct horse battery")
            _ = try await cem.updateProfile(UpdateAccountRequest(privacy: .private))
            let bea = SpotterClient(baseURL: url)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: "correct horse battery")
            let outbox = try ActionQueue(path: nil, client: bea)

            let open = await ProfileViewModel(username: "ana", client: bea, outbox: outbox)
            await open.load()
            #expect(await open.followTitle == "Follow")
            await open.toggleFollow()
            #expect(await open.followTitle == "Following")
            #expect(await open.profile?.followersCount == 1)
            #expect(try await bea.profile("ana").relationship?.following == .following)
            await open.toggleFollow()
            #expect(await open.followTitle == "Follow")
            #expect(try await bea.profile("ana").relationship?.following == FollowState.none)

            let locked = await ProfileViewModel(username: "cem", client: bea, outbox: outbox)
            await locked.load()
            await locked.toggleFollow()
            #expect(await locked.followTitle == "Requested")
            #expect(await locked.profile?.followersCount == 0)

            // Ana blocks Bea while Bea looks at her profile: the follow is refused and the button changes back.
            await open.load()
            _ = try await ana.setBlocked(true, "bea")
            await open.toggleFollow()
            #expect(await open.followTitle == "Follow")
            #expect(await open.profile?.followersCount == 0)
            #expect(await open.errorMessage != nil)
        }
    }
}
