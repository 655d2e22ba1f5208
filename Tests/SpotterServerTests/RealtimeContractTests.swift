import Foundation
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// The live socket and the REST API tell one story: for every relation a viewer can have with an author,
/// what `community:feed` and `feed:<me>` deliver (new posts, counts, deletions) equals what a REST refresh of
/// the Global and Following feeds shows, and what a `since` replay returns.
@Suite("Realtime matches REST")
struct RealtimeContractTests {
    @Test(
        "every viewer relation, every feed topic: live posts, counts and deletions equal the REST refresh and the replay",
        arguments: StorageBackend.available)
    func matrix(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: { $0.postRules.newAccountPostsPerHour = 1000 }) { api, port in
            // Given Bea (public) and Quin (private), and viewers standing every way with them
            let bea = try await api.signup("bea")
            let quin = try await api.signup("quin")
            try await api.makePrivate(quin.accessToken)
            let fay = try await api.signup("fay")  // follows both
            let moe = try await api.signup("moe")  // follows Bea and mutes her
            let sam = try await api.signup("sam")  // a stranger
            let xan = try await api.signup("xan")  // blocked by both authors
            let yul = try await api.signup("yul")  // blocks Bea
            let kit = try await api.signup("kit")  // gives kudos, follows both
            for person in [fay, kit] {
                try await api.follow(person.accessToken, "bea")
                try await api.follow(person.accessToken, "quin")
                try await api.approve(quin.accessToken, person.user.username)
            }
            try await api.follow(moe.accessToken, "bea")
            try await api.mute(moe.accessToken, "bea")
            try await api.block(bea.accessToken, "xan")
            try await api.block(quin.accessToken, "xan")
            try await api.block(yul.accessToken, "bea")
            let anchor = try await api.post(kit.accessToken, "anchor #gym")
            let since = PageRequest.encode(anchor.id.rawValue)

            let viewers = [bea, quin, fay, moe, sam, xan, yul]
            var sockets: [PhoenixTestClient] = []
            for viewer in viewers {
                let socket = try await PhoenixTestClient.connect(port: port, token: viewer.accessToken)
                _ = try await socket.join("community:feed", ref: "c", payload: .object(["presence": .bool(false)]))
                _ = try await socket.join("feed:\(viewer.user.id)", ref: "f")
                sockets.append(socket)
            }
            /// Each viewer posts, and waits for their own post on their Following feed: every earlier event has
            /// then been handled for their socket.
            func settle(_ round: String) async throws {
                for (viewer, socket) in zip(viewers, sockets) {
                    let own = try await api.post(viewer.accessToken, "\(round) \(viewer.user.username) #gym")
                    try await socket.waitForPost(own, on: "feed:\(viewer.user.id)")
                }
            }

            // When both authors post at every visibility
            var subjects: [Post] = []
            for author in [bea, quin] {
                for visibility in [Visibility.public, .followers, .private] {
                    subjects.append(
                        try await api.post(
                            author.accessToken, "\(author.user.username) \(visibility.rawValue) #gym",
                            visibility: visibility))
                }
            }
            try await settle("posted")
            let subjectIDs = Set(subjects.map(\.id.description))

            // Then each socket got, on each topic, exactly what REST and the replay show
            var listed: [[String: Set<String>]] = []
            for (viewer, socket) in zip(viewers, sockets) {
                let token = viewer.accessToken
                let topics = [
                    "community:feed": "/api/v1/feeds/global", "feed:\(viewer.user.id)": "/api/v1/feeds/following",
                ]
                var lists: [String: Set<String>] = [:]
                for (topic, path) in topics {
                    let live = socket.ids("new_post", on: topic).intersection(subjectIDs)
                    let rest = try await api.feedIDs(path, token: token).intersection(subjectIDs)
                    let replay = try await socket.join(
                        topic, ref: "r\(topic)", payload: .object(["since": .string(since)]))
                    let missed = try #require(replay.payload["response"]?["missed"]?.arrayValue, "\(replay.payload)")
                    let replayed = Set(missed.compactMap { $0["id"]?.stringValue }).intersection(subjectIDs)
                    #expect(live == rest, "\(viewer.user.username) on \(topic): live \(live.count), REST \(rest.count)")
                    #expect(live == replayed, "\(viewer.user.username) on \(topic): live vs replay")
                    lists[topic] = live
                }
                listed.append(lists)
            }
            // The relations the matrix is for, spelled out.
            let (beaPublic, beaFollowers, quinPublic) = (
                subjects[0].id.description, subjects[1].id.description, subjects[3].id.description
            )
            #expect(listed[2]["feed:\(fay.user.id)"]?.isSuperset(of: [beaPublic, beaFollowers, quinPublic]) == true)
            #expect(listed[3].values.allSatisfy { !$0.contains(beaPublic) }, "a muter's lists")
            #expect(listed[4]["community:feed"] == [beaPublic], "a stranger sees only Bea's public post")
            #expect(listed[5].values.allSatisfy { $0.isEmpty }, "blocked by both authors")
            #expect(listed[6]["community:feed"]?.isEmpty == true, "blocking Bea, and a stranger to Quin")

            // When Kit gives kudos to what Kit may see, and the authors then delete everything
            for post in subjects where post.visibility != .private { try await api.kudos(kit.accessToken, post) }
            try await settle("counted")
            for post in subjects {
                try await api.delete(post.author.id == bea.user.id ? bea.accessToken : quin.accessToken, post)
            }
            try await settle("deleted")

            // Then counts and deletions went exactly where each post was listed
            for (index, (viewer, socket)) in zip(viewers, sockets).enumerated() {
                for (topic, shown) in listed[index] {
                    let kudosed = shown.filter { id in
                        subjects.contains { $0.id.description == id && $0.visibility != .private }
                    }
                    #expect(
                        socket.ids("post_likes_updated", on: topic).intersection(subjectIDs) == kudosed,
                        "counts for \(viewer.user.username) on \(topic)")
                    #expect(
                        socket.ids("post_deleted", on: topic).intersection(subjectIDs) == shown,
                        "deletions for \(viewer.user.username) on \(topic)")
                }
            }
            for socket in sockets { await socket.close() }
        }
    }
}
