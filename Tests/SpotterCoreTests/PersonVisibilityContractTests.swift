import Foundation
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterTestSupport
import Testing

/// The person matrix: for people of every privacy, suspended or not, and viewers in every relation to them,
/// each adapter's SQL (lists of people, kudos, comments and their counts, search, reach, relay events) and each
/// service that asks `PersonPolicy` (profiles, follow lists, device chains, presence) shows exactly what the
/// policy allows. The post matrix (`SocialContractTests.visibilityMatrix`) does the same for `VisibilityPolicy`.
@Suite("Storage contract: who may see a person")
struct PersonVisibilityContractTests {
    static let start = SocialContractTests.start

    static func account(_ name: String, privacy: Privacy) -> AccountRecord {
        AccountRecord(
            id: .generate(at: start), username: name, email: "\(name)@example.com", passwordHash: nil,
            displayName: "Zephyr \(name)", appleSubject: nil, createdAt: start, profile: ProfileFields(privacy: privacy)
        )
    }

    /// Whether `work` fails with a 404 (`nil`), a 403 (`false`) or succeeds (`true`).
    static func outcome(_ work: () async throws -> Void) async throws -> Bool? {
        do {
            try await work()
            return true
        } catch SpotterError.notFound {
            return nil
        } catch SpotterError.forbidden {
            return false
        }
    }

    @Test("every viewer sees of a person exactly what PersonPolicy allows", arguments: StorageBackend.available)
    func personMatrix(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given a host with a public post, and people of every privacy, suspended or not, each following
            // the host, giving the post kudos, commenting on it, and publishing on the relay…
            let host = Self.account("host", privacy: .public)
            try await storage.accounts.create(host)
            let post = try await SocialContractTests.post(storage, by: host)
            var people: [AccountRecord] = []
            var comments: [UserID: CommentID] = [:]
            var events: [UserID: String] = [:]
            for privacy in Privacy.allCases {
                for suspended in [false, true] {
                    var person = Self.account("p_\(privacy.rawValue)_\(suspended ? "s" : "ok")", privacy: privacy)
                    try await storage.accounts.create(person)
                    try await storage.graph.follow(person.id, host.id, state: .accepted, at: Self.start)
                    _ = try await storage.posts.addKudos(post.id, by: person.id, at: Self.start)
                    let comment = CommentRecord(
                        id: .generate(at: Self.start), postID: post.id, parentID: nil, authorID: person.id,
                        text: "nice", createdAt: Self.start)
                    try await storage.posts.insertComment(comment)
                    comments[person.id] = comment.id
                    let event = try NostrStoreContractTests.sign(try .generate(), person.username)
                    _ = try await storage.nostr.save(event, author: person.id, receivedAt: Self.start)
                    events[person.id] = event.content
                    if suspended {
                        try await storage.accounts.setSuspended(person.id, at: Self.start)
                        person.suspendedAt = Self.start
                    }
                    people.append(person)
                }
            }
            // …and viewers in every relation to all of them.
            let names = ["stranger", "follower", "requester", "blocker", "blockee", "muter"]
            var viewers: [String: AccountRecord] = [:]
            for name in names {
                let viewer = Self.account(name, privacy: .public)
                try await storage.accounts.create(viewer)
                viewers[name] = viewer
            }
            for person in people {
                try await storage.graph.follow(viewers["follower"]!.id, person.id, state: .accepted, at: Self.start)
                try await storage.graph.follow(viewers["requester"]!.id, person.id, state: .pending, at: Self.start)
                try await storage.graph.block(viewers["blocker"]!.id, person.id, at: Self.start)
                try await storage.graph.block(person.id, viewers["blockee"]!.id, at: Self.start)
                try await storage.graph.mute(viewers["muter"]!.id, person.id, at: Self.start)
            }
            let clock = ManualClock(Self.start)
            let social = SocialService(storage: storage, clock: clock)
            let devices = E2EDeviceService(storage: storage, clock: clock)
            let access = TopicAccess(storage: storage)

            /// What the policy knows of `viewer` (by its name in the matrix) and `person`.
            func facts(_ name: String, _ viewer: AccountRecord?, _ person: AccountRecord) -> PersonPolicy.Facts {
                PersonPolicy.Facts(
                    signedIn: viewer != nil, isSelf: viewer?.id == person.id, suspended: person.suspendedAt != nil,
                    blockedEitherWay: name == "blocker" || name == "blockee", follows: name == "follower",
                    muted: name == "muter", privacy: person.profile.privacy)
            }

            // A suspended account signs in nowhere, so it is nobody's viewer: people see themselves while they stand.
            var everyone: [(String, AccountRecord?)] = [("anonymous", nil)] + names.map { ($0, viewers[$0]) }
            everyone += people.filter { $0.suspendedAt == nil }.map { ("self", $0) }
            for (name, viewer) in everyone {
                // Then the host's followers, the post's kudos and comments, their counts, search and the relay
                // show each person as `exists` (and `relayEvents`) says…
                let id = viewer?.id
                let followers = Set(
                    try await storage.graph.followers(of: host.id, state: .accepted, viewer: id, after: nil, limit: 100)
                        .map(\.account.id))
                let givers = Set(
                    try await storage.posts.kudosGivers(of: post.id, viewer: id, after: nil, limit: 100).map(\.id))
                let shown = Set(
                    try await storage.posts.comments(on: post.id, viewer: id, after: nil, limit: 100).map(\.id))
                let found = Set(try await storage.search.users(matching: "zephyr", viewer: id, limit: 100).map(\.id))
                let relayed = Set(
                    try await storage.nostr.query([NostrFilter()], reader: NostrReader(user: id), limitCap: 100)
                        .map(\.content))
                let counts = try #require(try await storage.posts.post(post.id, viewer: id))
                var relations: PresenceRelations?
                if let id { relations = try await access.presenceRelations(of: id) }
                var existing = 0
                for person in people where viewer == nil || name != "self" || viewer?.id == person.id {
                    let facts = facts(name, viewer, person)
                    let exists = PersonPolicy.allows(.exists, facts)
                    let label = "\(name) → \(person.username)"
                    if exists { existing += 1 }
                    #expect(followers.contains(person.id) == exists, "\(label): the host's followers")
                    #expect(givers.contains(person.id) == exists, "\(label): kudos")
                    #expect(shown.contains(comments[person.id]!) == exists, "\(label): comments")
                    #expect(found.contains(person.id) == exists, "\(label): search")
                    #expect(
                        relayed.contains(events[person.id]!) == PersonPolicy.allows(.relayEvents, facts),
                        "\(label): relay events")
                    // …and the services asking the policy answer as it says: a profile and its lists (404 where
                    // the person does not exist, 403 where only the lists are closed), the device chain…
                    #expect(
                        try await Self.outcome { _ = try await social.profile(person.username, viewer: viewer) }
                            == (exists ? true : nil), "\(label): profile")
                    let lists = PersonPolicy.allows(.lists, facts)
                    #expect(
                        try await Self.outcome {
                            _ = try await social.list(
                                .followers, of: person.username, viewer: viewer,
                                page: try FollowPage(limit: nil, cursor: nil))
                        } == (exists ? lists : nil), "\(label): followers list")
                    guard let viewer, let relations else { continue }
                    #expect(
                        try await Self.outcome { _ = try await devices.chain(of: person.id, viewer: viewer) }
                            == (PersonPolicy.allows(.deviceChain, facts) ? true : nil), "\(label): device chain")
                    // …presence, for people who can be online (a suspended account is signed out)…
                    if person.suspendedAt == nil {
                        #expect(
                            PresencePolicy.canSee(
                                person.id, presentIsPrivate: person.profile.privacy == .private, viewer: viewer.id,
                                relations: relations) == PersonPolicy.allows(.presence, facts), "\(label): presence")
                    }
                    // …and whether what the person does reaches the viewer as a notification.
                    if viewer.id != person.id {
                        #expect(
                            try await storage.graph.mayReach(viewer.id, from: person.id)
                                == PersonPolicy.allows(.notifications, facts), "\(label): notifications")
                    }
                }
                // The counts agree with the lists (only a person viewing sees themselves among the others).
                if name != "self" {
                    #expect(counts.kudosCount == existing, "\(name): kudos count")
                    #expect(counts.commentsCount == existing, "\(name): comments count")
                }
            }
        }
    }

    @Test("the policy itself: a private account's lists and presence are for itself and its approved followers")
    func policyRules() {
        let privateAccount = PersonPolicy.Facts(privacy: .private)
        #expect(PersonPolicy.allows(.exists, privateAccount))
        #expect(!PersonPolicy.allows(.lists, privateAccount))
        #expect(!PersonPolicy.allows(.presence, privateAccount))
        #expect(!PersonPolicy.allows(.relayEvents, privateAccount))
        var follower = privateAccount
        follower.follows = true
        #expect(PersonPolicy.allows(.lists, follower) && PersonPolicy.allows(.presence, follower))
        // The relay serves keys, not followers: a private or followers-only account's events stay its own.
        #expect(!PersonPolicy.allows(.relayEvents, follower))
        #expect(!PersonPolicy.allows(.relayEvents, PersonPolicy.Facts(follows: true, privacy: .followers)))
        // Nobody is notified of what they did themselves, and a suspended person's avatar is gone for everyone.
        #expect(!PersonPolicy.allows(.notifications, PersonPolicy.Facts(isSelf: true)))
        #expect(!PersonPolicy.allows(.avatar, PersonPolicy.Facts(isSelf: true, suspended: true)))
        #expect(!PersonPolicy.allows(.deviceChain, PersonPolicy.Facts(signedIn: false)))
    }
}
