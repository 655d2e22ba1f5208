import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

@Suite("Groups on the realtime socket")
struct GroupRealtimeTests {
    static func manyPosts(_ configuration: inout AppConfiguration) {
        configuration.postRules.newAccountPostsPerHour = 1000
    }

    @Test(
        "a member removed while joined to group:<id> and feed:<id> hears nothing of the group afterwards",
        arguments: StorageBackend.available)
    func removal(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: Self.manyPosts) { api, port in
            // Given a private family group with Ana (owner), Bea and Cara; Bea follows Cara
            let ana = try await api.user("ana")
            let bea = try await api.signup("bea")
            let cara = try await api.user("cara")
            let family = try await api.createGroup(ana, "Family", access: .private)
            try await api.addMember(bea.accessToken, username: "bea", to: family, admin: ana)
            try await api.addMember(cara, username: "cara", to: family, admin: ana)
            try await api.follow(bea.accessToken, "cara")
            let socket = try await PhoenixTestClient.connect(port: port, token: bea.accessToken)
            let groupTopic = "group:\(family.id)"
            let feedTopic = "feed:\(bea.user.id)"
            #expect(try await socket.join(groupTopic, ref: "1").payload["status"]?.stringValue == "ok")
            #expect(try await socket.join(feedTopic, ref: "2").payload["status"]?.stringValue == "ok")
            // When Cara posts to the family, Bea hears it on both topics, marked with the group
            let before = try await api.postToGroup(cara, family, "Sunday hike")
            try await socket.waitForPost(before, on: groupTopic)
            try await socket.waitForPost(before, on: feedTopic)

            // And Ana removes Bea
            let removal = try await api.call(.delete, "/api/v1/groups/\(family.id)/members/\(bea.user.id)", token: ana)
            #expect(removal.status == .noContent)
            // Then Bea's join of the group's topic ends at once
            let closed = try await socket.next { $0.event == PhoenixMessage.Event.close && $0.topic == groupTopic }
            #expect(closed.joinRef == "1")
            // And nothing more of the group reaches her: a new post, kudos on the old one
            let after = try await api.postToGroup(cara, family, "Picnic photos")
            try await api.kudos(ana, before)
            // (A public post of Cara's after them: the hub handles events in order, so by the time it arrives
            // the group's events were judged for Bea.)
            let marker = try await api.post(cara, "Public run #running")
            try await socket.waitForPost(marker, on: feedTopic)
            let heard = socket.collected { frame in
                [before.id.description, after.id.description].contains(frame.payload["id"]?.stringValue ?? "")
            }
            #expect(heard.isEmpty, "\(heard.map { "\($0.topic) \($0.event)" })")
            // And she can't join the topic again
            #expect(try await socket.join(groupTopic, ref: "3").payload["status"]?.stringValue == "error")
            // As REST agrees
            #expect(try await api.call(.get, "/api/v1/posts/\(after.id)", token: bea.accessToken).status == .notFound)
            #expect(
                !(try await api.feedIDs("/api/v1/feeds/following", token: bea.accessToken)).contains(
                    after.id.description))
            await socket.close()
        }
    }

    @Test("a member's live Following feed marks a group post with its group", arguments: StorageBackend.available)
    func markedInFollowing(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: Self.manyPosts) { api, port in
            let ana = try await api.user("ana")
            let bea = try await api.signup("bea")
            let club = try await api.createGroup(ana, "Harbour Runners", access: .request)
            try await api.addMember(bea.accessToken, username: "bea", to: club, admin: ana)
            try await api.follow(bea.accessToken, "ana")
            let socket = try await PhoenixTestClient.connect(port: port, token: bea.accessToken)
            let feedTopic = "feed:\(bea.user.id)"
            _ = try await socket.join(feedTopic, ref: "1")
            let post = try await api.postToGroup(ana, club, "Intervals tonight")
            let frame = try await socket.next {
                $0.event == "new_post" && $0.topic == feedTopic && $0.payload["id"]?.stringValue == post.id.description
            }
            #expect(frame.payload["group"]?["name"]?.stringValue == "Harbour Runners")
            #expect(frame.payload["visibility"]?.stringValue == "group")
            let rest = try await api.feed("/api/v1/feeds/following", token: bea.accessToken).items
            #expect(rest.first?.group?.id == club.id)
            await socket.close()
        }
    }
    @Test(
        "a ban closes an open group's post on the socket too: its post:<id> hears nothing more, and no topic opens",
        arguments: StorageBackend.available)
    func banOnTheSocket(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: Self.manyPosts) { api, port in
            // Given Ana's open club, and Bea, a member, reading a post of Ana's there live
            let ana = try await api.user("ana")
            let bea = try await api.signup("bea")
            let cai = try await api.user("cai")
            let club = try await api.createGroup(ana, "Harbour Runners", access: .open)
            try await api.joinGroup(bea.accessToken, club)
            let post = try await api.postToGroup(ana, club, "Tempo loop")
            let socket = try await PhoenixTestClient.connect(port: port, token: bea.accessToken)
            let (postTopic, groupTopic, feedTopic) = ("post:\(post.id)", "group:\(club.id)", "feed:\(bea.user.id)")
            for (index, topic) in [postTopic, groupTopic, feedTopic].enumerated() {
                #expect(try await socket.join(topic, ref: "\(index)").payload["status"]?.stringValue == "ok")
            }

            // When Ana bans her
            let ban = try await api.call(.put, "/api/v1/groups/\(club.id)/bans/\(bea.user.id)", token: ana)
            #expect(ban.status == .noContent)
            _ = try await socket.next { $0.event == PhoenixMessage.Event.close && $0.topic == groupTopic }
            // And Cai gives the post kudos and a comment
            try await api.kudos(cai, post)
            let comment = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: cai, body: CreateCommentRequest(text: "Nice"))
            #expect(comment.status == .created)
            // (Bea's own post after them: the hub handles events in order.)
            let marker = try await api.post(bea.accessToken, "Marker")
            try await socket.waitForPost(marker, on: feedTopic)

            // Then nothing of it reached her post:<id> join
            let heard = socket.collected {
                $0.topic == postTopic && ["post_likes_updated", "post_comments_updated"].contains($0.event)
            }
            #expect(heard.isEmpty, "\(heard.map(\.event))")
            // And neither the post's topic nor the group's opens for her again
            #expect(try await socket.join(postTopic, ref: "4").payload["status"]?.stringValue == "error")
            #expect(try await socket.join(groupTopic, ref: "5").payload["status"]?.stringValue == "error")
            // As REST agrees: the post is not found, the group's feed refused, kudos and comments too
            let token = bea.accessToken
            #expect(try await api.call(.get, "/api/v1/posts/\(post.id)", token: token).status == .notFound)
            #expect(try await api.call(.get, "/api/v1/groups/\(club.id)/posts", token: token).status == .forbidden)
            #expect(try await api.call(.post, "/api/v1/posts/\(post.id)/kudos", token: token).status == .notFound)
            #expect(try await api.call(.get, "/api/v1/posts/\(post.id)/comments", token: token).status == .notFound)
            let reply = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: token, body: CreateCommentRequest(text: "Hi"))
            #expect(reply.status == .notFound)
            await socket.close()
        }
    }
}
