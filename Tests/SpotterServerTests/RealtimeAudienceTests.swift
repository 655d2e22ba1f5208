import Foundation
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// What a live socket hears of posts is what a REST refresh shows: one rule (`VisibilityPolicy` through
/// `LiveAudience`) for new posts, counts and deletions, on every topic, for every relation a viewer can have.
@Suite("Realtime audience")
struct RealtimeAudienceTests {
    static func manyPosts(_ configuration: inout AppConfiguration) {
        configuration.postRules.newAccountPostsPerHour = 1000
    }

    @Test("a muted author's new post reaches neither of the muter's live feeds", arguments: StorageBackend.available)
    func mutes(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: Self.manyPosts) { api, port in
            // Given Ana follows and mutes Max, and follows Sol
            let ana = try await api.signup("ana")
            let max = try await api.user("max")
            let sol = try await api.user("sol")
            try await api.follow(ana.accessToken, "max")
            try await api.follow(ana.accessToken, "sol")
            try await api.mute(ana.accessToken, "max")
            let socket = try await PhoenixTestClient.connect(port: port, token: ana.accessToken)
            let following = "feed:\(ana.user.id)"
            _ = try await socket.join("community:feed", ref: "1")
            _ = try await socket.join(following, ref: "2")
            // When Max posts, then Sol does
            let muted = try await api.post(max, "Bench day #gym")
            let later = try await api.post(sol, "Rowing #gym")
            try await socket.waitForPost(later, on: following)
            try await socket.waitForPost(later, on: "community:feed")
            // Then Max's post reached neither feed, as neither REST feed shows it
            #expect(!socket.ids("new_post", on: "community:feed").contains(muted.id.description))
            #expect(!socket.ids("new_post", on: following).contains(muted.id.description))
            #expect(
                !(try await api.feedIDs("/api/v1/feeds/global", token: ana.accessToken)).contains(muted.id.description))
            #expect(
                !(try await api.feedIDs("/api/v1/feeds/following", token: ana.accessToken)).contains(
                    muted.id.description))
            await socket.close()
        }
    }

    @Test(
        "post_deleted reaches only sockets that could see the post, on the lists it stood in",
        arguments: StorageBackend.available)
    func deletions(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: Self.manyPosts) { api, port in
            // Given Bea, who blocked Xan; Fay follows her; Sam is a stranger
            let bea = try await api.user("bea")
            let fay = try await api.signup("fay")
            let sam = try await api.signup("sam")
            let xan = try await api.signup("xan")
            try await api.follow(fay.accessToken, "bea")
            try await api.block(bea, "xan")
            let posts = [
                try await api.post(bea, "open #gym"),
                try await api.post(bea, "friends #gym", visibility: .followers),
                try await api.post(bea, "mine #gym", visibility: .private),
            ]
            var sockets: [(TokenResponse, PhoenixTestClient)] = []
            for person in [fay, sam, xan] {
                let socket = try await PhoenixTestClient.connect(port: port, token: person.accessToken)
                _ = try await socket.join("community:feed", ref: "1")
                _ = try await socket.join("feed:\(person.user.id)", ref: "2")
                sockets.append((person, socket))
            }
            // When Bea deletes all three, and then each of them posts
            for post in posts { try await api.delete(bea, post) }
            for (person, socket) in sockets {
                let own = try await api.post(person.accessToken, "after \(person.user.username) #gym")
                try await socket.waitForPost(own, on: "feed:\(person.user.id)")
            }
            // Then only the posts each could see were announced deleted, where they stood
            let (open, friends) = (posts[0].id.description, posts[1].id.description)
            let fays = sockets[0].1
            #expect(fays.ids("post_deleted", on: "community:feed") == [open])
            #expect(fays.ids("post_deleted", on: "feed:\(fay.user.id)") == [open, friends])
            #expect(sockets[1].1.ids("post_deleted", on: "community:feed") == [open])
            #expect(sockets[1].1.ids("post_deleted", on: "feed:\(sam.user.id)").isEmpty)
            #expect(sockets[2].1.collected { $0.event == "post_deleted" }.isEmpty)
            for (_, socket) in sockets { await socket.close() }
        }
    }
}
