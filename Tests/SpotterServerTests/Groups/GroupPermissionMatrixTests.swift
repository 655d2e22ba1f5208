import Foundation
import HTTPTypes
import SpotterModels
import SpotterTestSupport
import Testing

/// For each kind of group and each way a person can stand with it, every read and action through the public
/// API and the socket is allowed or refused as the groups issue says. The expectations are written out here
/// from the words, not asked of `GroupPolicy`, so the test can catch the policy being wrong.
///
/// Everyone signed in follows the member who posts (but for the one she blocked), so the lists a follower's
/// post reaches are tried too: a group post is listed only for members, and a ban closes even an open group.
@Suite("Group permissions: every relation, every kind of group")
struct GroupPermissionMatrixTests {
    enum Relation: String, CaseIterable, Sendable {
        case owner, admin, member, invited, requested, removed, left, banned, stranger, blockedByMember, suspended
        case signedOut
    }

    /// What a person may do, as the issue describes it.
    struct Expected: Equatable, CustomStringConvertible {
        var about: HTTPResponse.Status
        var posts: HTTPResponse.Status
        /// Whether the member's post shows in the group's feed and on its own page, and takes their kudos.
        var readsPost: Bool
        /// Whether it is listed for them: in their Following feed, the hashtag's feed and search.
        var listsPost: Bool
        var members: HTTPResponse.Status
        var postHere: HTTPResponse.Status
        var invitations: HTTPResponse.Status
        var socket: Bool
        var join: HTTPResponse.Status

        var description: String {
            "about \(about.code) posts \(posts.code) reads \(readsPost) lists \(listsPost) members \(members.code) "
                + "post \(postHere.code) invitations \(invitations.code) socket \(socket) join \(join.code)"
        }
    }

    static func expected(_ relation: Relation, _ access: GroupAccess) -> Expected {
        let isMember = [.owner, .admin, .member].contains(relation)
        if isMember {
            return Expected(
                about: .ok, posts: .ok, readsPost: true, listsPost: true, members: .ok, postHere: .created,
                invitations: relation == .member ? .forbidden : .ok, socket: true, join: .ok)
        }
        if relation == .signedOut || relation == .suspended {
            // A suspended account's token is refused outright (403: suspended); signed out reads what anyone may.
            if relation == .suspended {
                return Expected(
                    about: .forbidden, posts: .forbidden, readsPost: false, listsPost: false, members: .forbidden,
                    postHere: .forbidden, invitations: .forbidden, socket: false, join: .forbidden)
            }
            let open = access == .open
            let hidden = access == .private
            // An open group's post is read by anyone, and listed for members only.
            return Expected(
                about: hidden ? .notFound : .ok, posts: open ? .ok : hidden ? .notFound : .forbidden, readsPost: open,
                listsPost: false, members: open ? .ok : hidden ? .notFound : .forbidden, postHere: .unauthorized,
                invitations: .unauthorized, socket: false, join: .unauthorized)
        }
        // Outsiders: invited, requested, removed, left, banned, strangers, someone a member blocked. A ban closes
        // even an open group's posts and members: its feed, its topic, each post's page and kudos, its list.
        let seesAbout = access != .private || relation == .invited
        let readsPosts = access == .open && relation != .banned
        let notFound: HTTPResponse.Status = .notFound
        let join: HTTPResponse.Status =
            switch relation {
            case .invited, .requested: .ok
            case .banned: seesAbout ? .forbidden : notFound
            default: access == .private ? notFound : .ok
            }
        return Expected(
            about: seesAbout ? .ok : notFound,
            posts: readsPosts ? .ok : seesAbout ? .forbidden : notFound,
            readsPost: readsPosts && relation != .blockedByMember, listsPost: false,
            members: readsPosts ? .ok : seesAbout ? .forbidden : notFound,
            postHere: .unprocessableContent,
            invitations: seesAbout ? .forbidden : notFound,
            socket: readsPosts, join: join)
    }

    /// The relations a group of this kind can have: nobody asks to join an open or a private group.
    static func relations(for access: GroupAccess) -> [Relation] {
        Relation.allCases.filter { $0 != .requested || access == .request }
    }

    static let cases: [(StorageBackend, GroupAccess)] = StorageBackend.available.flatMap { backend in
        GroupAccess.allCases.map { (backend, $0) }
    }

    @Test("each relation reads and acts as the rules say", arguments: cases)
    func matrix(backend: StorageBackend, access: GroupAccess) async throws {
        try await TestApp.runLive(backend) { api, port in
            let owner = try await api.user("olga")
            let group = try await api.createGroup(owner, "Harbour Runners", access: access)
            let admin = try await api.user("adam")
            try await api.addMember(admin, username: "adam", to: group, admin: owner)
            let adamID = try await api.userID("adam", token: owner)
            #expect(
                try await api.call(
                    .patch, "/api/v1/groups/\(group.id)/members/\(adamID)", token: owner,
                    body: SetMemberRoleRequest(role: .admin)
                ).status == .noContent)
            let member = try await api.user("mia")
            try await api.addMember(member, username: "mia", to: group, admin: admin)
            let post = try await api.postToGroup(member, group, "Tempo loop at dawn #harbourtempo")
            #expect(post.visibility == .group)
            #expect(post.group == GroupSummary(id: group.id, name: "Harbour Runners"))

            var tokens: [Relation: String?] = [.owner: owner, .admin: admin, .member: member, .signedOut: nil]
            try await api.follow(owner, "mia")
            try await api.follow(admin, "mia")
            for relation in Self.relations(for: access) where tokens[relation] == nil {
                let name = "p_" + relation.rawValue.lowercased()
                let token = try await api.user(name)
                tokens[relation] = token
                let id = try await api.userID(name, token: owner)
                if relation != .blockedByMember { try await api.follow(token, "mia") }
                switch relation {
                case .invited:
                    _ = try await api.invite(admin, group, username: name)
                case .requested:
                    #expect(try await api.joinGroup(token, group).standing == .requested)
                case .removed, .banned:
                    try await api.addMember(token, username: name, to: group, admin: admin)
                    let path = relation == .removed ? "members" : "bans"
                    let method: HTTPRequest.Method = relation == .removed ? .delete : .put
                    let removal = try await api.call(method, "/api/v1/groups/\(group.id)/\(path)/\(id)", token: admin)
                    #expect(removal.status == .noContent)
                case .left:
                    try await api.addMember(token, username: name, to: group, admin: admin)
                    let left = try await api.call(.post, "/api/v1/groups/\(group.id)/leave", token: token)
                    #expect(left.status == .noContent)
                case .blockedByMember:
                    try await api.block(member, name)
                case .suspended:
                    try await api.addMember(token, username: name, to: group, admin: admin)
                    try await api.suspend(name)
                default: break
                }
            }

            for relation in Self.relations(for: access) {
                let token = tokens[relation] ?? nil
                let want = Self.expected(relation, access)
                var got = Expected(
                    about: try await api.call(.get, "/api/v1/groups/\(group.id)", token: token).status,
                    posts: .ok, readsPost: false, listsPost: false, members: .ok, postHere: .ok, invitations: .ok,
                    socket: false, join: .ok)
                let feed = try await api.call(.get, "/api/v1/groups/\(group.id)/posts", token: token)
                got.posts = feed.status
                let feedIDs = feed.status == .ok ? try feed.decode(Page<Post>.self).items.map(\.id) : []
                let inFeed = feedIDs.contains(post.id)
                let single = try await api.call(.get, "/api/v1/posts/\(post.id)", token: token).status == .ok
                // Kudos take signing in, and are for other people's posts (Mia wrote it).
                let kudos =
                    relation == .member || token == nil
                    ? nil : try await api.call(.post, "/api/v1/posts/\(post.id)/kudos", token: token).status
                // One rule for every surface: the group's feed, the post's page and its kudos agree.
                #expect(
                    inFeed == single && single == (kudos.map { $0.code < 300 } ?? single),
                    "\(relation): feed \(inFeed) page \(single) kudos \(kudos?.code ?? 0)")
                got.readsPost = inFeed && single
                let search = try await api.call(.get, "/api/v1/search?q=harbourtempo", token: token)
                let searchIDs = search.status == .ok ? try search.decode(SearchResults.self).posts.map(\.id) : []
                let found = searchIDs.contains(post.id)
                let tag = try await api.call(.get, "/api/v1/feeds/tags/harbourtempo", token: token)
                let tagIDs = tag.status == .ok ? try tag.decode(Page<Post>.self).items.map(\.id) : []
                let tagged = tagIDs.contains(post.id)
                // Signed out has no Following feed; everyone else signed in follows Mia.
                let following =
                    token == nil || relation == .suspended
                    ? nil
                    : try await api.feed("/api/v1/feeds/following", token: token).items.contains { $0.id == post.id }
                // And the lists agree with each other: search, the hashtag and Following.
                #expect(
                    found == tagged && (following ?? found) == found,
                    "\(relation): search \(found) hashtag \(tagged) following \(String(describing: following))")
                got.listsPost = found && tagged
                got.members = try await api.call(.get, "/api/v1/groups/\(group.id)/members", token: token).status
                got.postHere =
                    try await api.call(
                        .post, "/api/v1/posts", token: token,
                        body: CreatePostRequest(kind: .note, text: "hello from \(relation)", groupID: group.id)
                    ).status
                got.invitations =
                    try await api.call(.get, "/api/v1/groups/\(group.id)/invitations", token: token).status
                // The other list only admins read: who is banned. The same rule, so the same answer.
                let bans = try await api.call(.get, "/api/v1/groups/\(group.id)/bans", token: token).status
                #expect(bans == want.invitations, "\(access) group, \(relation): bans \(bans.code)")
                if let token, relation != .suspended {
                    let socket = try await PhoenixTestClient.connect(port: port, token: token)
                    let reply = try await socket.join("group:\(group.id)", ref: "1")
                    got.socket = reply.payload["status"]?.stringValue == "ok"
                    await socket.close()
                }
                // Last, as it changes how they stand.
                got.join = try await api.call(.post, "/api/v1/groups/\(group.id)/join", token: token).status
                #expect(got == want, "\(access) group, \(relation)")
            }
        }
    }
}
