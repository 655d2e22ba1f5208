import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// The live socket and the REST API tell one story: for every relation a viewer can have with an author,
/// and with the open group the authors post in, what `community:feed` and `feed:<me>` deliver (new posts,
/// counts, deletions) equals what a REST refresh of the Global and Following feeds shows, and what a `since`
/// replay returns.
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
            // In Bea's open club, where Bea and Quin post: Fay and Kit are members; these follow Bea and are not.
            let nia = try await api.signup("nia")  // never joined
            let lea = try await api.signup("lea")  // joined and left
            let rex = try await api.signup("rex")  // removed
            let bex = try await api.signup("bex")  // banned
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
            let club = try await api.createGroup(bea.accessToken, "Harbour Runners", access: .open)
            for person in [quin, fay, kit, lea, rex, bex] { try await api.joinGroup(person.accessToken, club) }
            for person in [nia, lea, rex, bex] { try await api.follow(person.accessToken, "bea") }
            #expect(
                try await api.call(.post, "/api/v1/groups/\(club.id)/leave", token: lea.accessToken).status
                    == .noContent)
            for (person, path, method) in [(rex, "members", HTTPRequest.Method.delete), (bex, "bans", .put)] {
                let removal = try await api.call(
                    method, "/api/v1/groups/\(club.id)/\(path)/\(person.user.id)", token: bea.accessToken)
                #expect(removal.status == .noContent)
            }
            let anchor = try await api.post(kit.accessToken, "anchor #gym")
            let since = PageRequest.encode(anchor.id.rawValue)

            let viewers = [bea, quin, fay, moe, sam, xan, yul, nia, lea, rex, bex]
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

            // When both authors post at every visibility, and to the club
            var subjects: [Post] = []
            for author in [bea, quin] {
                for visibility in [Visibility.public, .followers, .private] {
                    subjects.append(
                        try await api.post(
                            author.accessToken, "\(author.user.username) \(visibility.rawValue) #gym",
                            visibility: visibility))
                }
                subjects.append(
                    try await api.postToGroup(author.accessToken, club, "\(author.user.username) club #gym"))
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
            let (beaPublic, beaFollowers, beaClub, quinPublic, quinClub) = (
                subjects[0].id.description, subjects[1].id.description, subjects[3].id.description,
                subjects[4].id.description, subjects[7].id.description
            )
            #expect(
                listed[2]["feed:\(fay.user.id)"]?.isSuperset(of: [
                    beaPublic, beaFollowers, beaClub, quinPublic, quinClub,
                ])
                    == true, "a member following both")
            #expect(listed[3].values.allSatisfy { !$0.contains(beaPublic) }, "a muter's lists")
            #expect(listed[4]["community:feed"] == [beaPublic], "a stranger sees only Bea's public post")
            #expect(listed[5].values.allSatisfy { $0.isEmpty }, "blocked by both authors")
            #expect(listed[6]["community:feed"]?.isEmpty == true, "blocking Bea, and a stranger to Quin")
            // A group post is listed for its author and the group's members only: not for a follower who never
            // joined, left, was removed or is banned, and never on the community feed.
            for (index, name) in [(7, "never joined"), (8, "left"), (9, "removed"), (10, "banned")] {
                #expect(listed[index]["feed:\(viewers[index].user.id)"] == [beaPublic, beaFollowers], "\(name)")
            }
            #expect(listed[0]["feed:\(bea.user.id)"]?.contains(beaClub) == true, "the author's own")
            #expect(listed.allSatisfy { $0["community:feed"]?.isDisjoint(with: [beaClub, quinClub]) == true })

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
