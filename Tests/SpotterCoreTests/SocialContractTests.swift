import Foundation
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// The storage contract for the social core: graph, posts, kudos, comments, feeds. The visibility matrix
/// holds each adapter's SQL to `VisibilityPolicy` for every combination that matters.
@Suite("Social storage contract")
struct SocialContractTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func user(
        _ storage: any SpotterStorage, _ name: String, privacy: Privacy = .public
    ) async throws
        -> AccountRecord
    {
        let account = AccountRecord(
            id: .generate(at: start), username: name, email: "\(name)@example.com", passwordHash: nil,
            displayName: name.capitalized, appleSubject: nil, createdAt: start, profile: ProfileFields(privacy: privacy)
        )
        try await storage.accounts.create(account)
        return account
    }

    static func post(
        _ storage: any SpotterStorage, by author: AccountRecord, _ text: String = "hello #legday",
        visibility: Visibility = .public, at date: Date = start, inGlobal: Bool = true, tags: [String] = ["legday"]
    ) async throws -> PostRecord {
        let record = PostRecord(
            id: .generate(at: date), authorID: author.id, kind: .note, text: text, visibility: visibility,
            workout: nil, records: [], hashtags: tags, mentions: [], textHash: text, inGlobal: inGlobal,
            performedAt: date, createdAt: date)
        try await storage.posts.insert(record)
        return record
    }

    /// A note in `group`, as `PostService` stores one: visibility `group`, never in Global.
    static func post(
        _ storage: any SpotterStorage, by author: AccountRecord, in group: GroupID
    ) async throws -> PostRecord {
        let record = PostRecord(
            id: .generate(at: start), authorID: author.id, kind: .note, text: "hello #legday", visibility: .group,
            workout: nil, records: [], hashtags: ["legday"], mentions: [], textHash: "hello #legday", inGlobal: false,
            performedAt: start, createdAt: start, groupID: group)
        try await storage.posts.insert(record)
        return record
    }

    @Test("every viewer sees exactly what VisibilityPolicy allows", arguments: StorageBackend.available)
    func visibilityMatrix(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given a group of every kind, and authors of every privacy, suspended or not, members of each, each
            // with a post of every visibility, one in each group, and a deleted one…
            let owner = try await Self.user(storage, "owner")
            var groups: [GroupID: GroupAccess] = [:]
            for access in GroupAccess.allCases {
                let group = GroupRecord(
                    id: .generate(at: Self.start), name: access.rawValue, description: "", avatarURL: nil,
                    timeZone: "UTC", access: access, ownerID: owner.id, createdAt: Self.start)
                try await storage.groups.create(group)
                groups[group.id] = access
            }
            var authors: [(AccountRecord, suspended: Bool)] = []
            for privacy in Privacy.allCases {
                for suspended in [false, true] {
                    let name = "a_\(privacy.rawValue)_\(suspended ? "s" : "ok")"
                    let author = try await Self.user(storage, name, privacy: privacy)
                    for group in groups.keys {
                        try await storage.groups.setMember(author.id, in: group, role: .member, at: Self.start)
                    }
                    if suspended { try await storage.accounts.setSuspended(author.id, at: Self.start) }
                    authors.append((author, suspended))
                }
            }
            var posts: [UserID: [(PostRecord, deleted: Bool)]] = [:]
            for (author, _) in authors {
                for visibility in Visibility.allCases {
                    posts[author.id, default: []].append(
                        (try await Self.post(storage, by: author, visibility: visibility), false))
                }
                for group in groups.keys {
                    posts[author.id, default: []].append((try await Self.post(storage, by: author, in: group), false))
                }
                let deleted = try await Self.post(storage, by: author)
                try await storage.posts.tombstone(deleted.id, at: Self.start)
                posts[author.id, default: []].append((deleted, true))
            }
            // …and viewers in every relationship to all of them, and to their groups: following the authors
            // as a member, banned, after leaving, or never having joined.
            let stranger = try await Self.user(storage, "stranger")
            let follower = try await Self.user(storage, "follower")
            let requester = try await Self.user(storage, "requester")
            let blocker = try await Self.user(storage, "blocker")
            let blockee = try await Self.user(storage, "blockee")
            let member = try await Self.user(storage, "member")
            let banned = try await Self.user(storage, "banned")
            let leaver = try await Self.user(storage, "leaver")
            let invitee = try await Self.user(storage, "invitee")
            for (author, _) in authors {
                for viewer in [follower, member, banned, leaver] {
                    try await storage.graph.follow(viewer.id, author.id, state: .accepted, at: Self.start)
                }
                try await storage.graph.follow(requester.id, author.id, state: .pending, at: Self.start)
                try await storage.graph.block(blocker.id, author.id, at: Self.start)
                try await storage.graph.block(author.id, blockee.id, at: Self.start)
            }
            for group in groups.keys {
                for viewer in [member, banned, leaver] {
                    try await storage.groups.setMember(viewer.id, in: group, role: .member, at: Self.start)
                }
                try await storage.groups.ban(banned.id, from: group, at: Self.start)
                try await storage.groups.removeMember(leaver.id, from: group)
                try await storage.groups.insert(
                    GroupInvitationRecord(
                        id: .generate(at: Self.start), groupID: group, invitedBy: owner.id, invitee: invitee.id,
                        codeHash: nil, expiresAt: nil, maxUses: 1, createdAt: Self.start))
            }
            let viewers: [(String, UserID?)] = [
                ("anonymous", nil), ("stranger", stranger.id), ("follower", follower.id),
                ("requester", requester.id), ("blocker", blocker.id), ("blockee", blockee.id), ("member", member.id),
                ("banned", banned.id), ("leaver", leaver.id), ("invitee", invitee.id),
            ]
            /// What the policy knows of a viewer and one post.
            func facts(
                _ name: String, _ viewer: UserID?, _ author: AccountRecord, suspended: Bool, _ post: PostRecord,
                deleted: Bool
            ) -> (VisibilityPolicy.Facts, VisibilityPolicy.ListingFacts) {
                let follows = ["follower", "member", "banned", "leaver"].contains(name)
                let isMember = name == "member"
                let group = post.groupID.flatMap { id in groups[id].map { (id, $0) } }
                let seeing = VisibilityPolicy.Facts(
                    isAuthor: viewer == author.id, postDeleted: deleted, authorSuspended: suspended,
                    blockedEitherWay: name == "blocker" || name == "blockee", followsAuthor: follows,
                    authorPrivacy: author.profile.privacy, visibility: post.visibility,
                    group: group.map { .init(access: $0.1, viewerIsMember: isMember, viewerIsBanned: name == "banned") }
                )
                let listing = VisibilityPolicy.ListingFacts(
                    isAuthor: viewer == author.id, followsAuthor: follows, mutesAuthor: false,
                    visibility: post.visibility, group: group?.0, viewerIsMember: isMember)
                return (seeing, listing)
            }
            // Then each post's page, each author's profile and count are what the policy says, for each viewer
            for (author, suspended) in authors {
                for (name, viewer) in viewers + [("author", author.id)] {
                    var expected: Set<PostID> = []
                    var counted = 0
                    for (post, deleted) in posts[author.id] ?? [] {
                        let (seeing, listing) = facts(
                            name, viewer, author, suspended: suspended, post, deleted: deleted)
                        let allowed = VisibilityPolicy.canSee(seeing)
                        let seen = try await storage.posts.post(post.id, viewer: viewer) != nil
                        let kind = post.groupID.flatMap { groups[$0]?.rawValue } ?? "no"
                        #expect(
                            seen == allowed,
                            "\(name) → \(author.username) \(post.visibility) (\(kind) group) deleted:\(deleted)")
                        if allowed && VisibilityPolicy.isListed(.profile, listing) { expected.insert(post.id) }
                        // A profile's count counts a group post for its author only.
                        if allowed && (post.groupID == nil || viewer == author.id) { counted += 1 }
                    }
                    let feed = try await storage.posts.feed(
                        FeedQuery(source: .author(author.id), limit: 50), viewer: viewer)
                    #expect(Set(feed.map(\.id)) == expected, "\(name) → \(author.username) profile feed")
                    #expect(
                        try await storage.posts.countVisiblePosts(by: author.id, viewer: viewer) == counted,
                        "\(name) → \(author.username) count")
                }
            }
            // And each viewer's Following feed, the hashtag's feed and search list what the policy says
            for (name, viewer) in viewers {
                var following: Set<PostID> = []
                var tagged: Set<PostID> = []
                var found: Set<PostID> = []
                for (author, suspended) in authors {
                    for (post, deleted) in posts[author.id] ?? [] {
                        let (seeing, listing) = facts(
                            name, viewer, author, suspended: suspended, post, deleted: deleted)
                        guard VisibilityPolicy.canSee(seeing) else { continue }
                        if VisibilityPolicy.isListed(.following, listing) { following.insert(post.id) }
                        if VisibilityPolicy.isListed(.hashtag, listing) { tagged.insert(post.id) }
                        if VisibilityPolicy.isListed(.search, listing) { found.insert(post.id) }
                    }
                }
                if let viewer {
                    let feed = try await storage.posts.feed(FeedQuery(source: .following, limit: 200), viewer: viewer)
                    #expect(Set(feed.map(\.id)) == following, "\(name): Following")
                }
                let tag = try await storage.posts.feed(FeedQuery(source: .tag("legday"), limit: 200), viewer: viewer)
                #expect(Set(tag.map(\.id)) == tagged, "\(name): #legday")
                let search = try await storage.search.posts(matching: "hello", viewer: viewer, limit: 200)
                #expect(Set(search.map(\.id)) == found, "\(name): search")
            }
        }
    }

    @Test("the policy itself: private accounts cap every post at followers")
    func policyRules() {
        func see(_ privacy: Privacy, _ visibility: Visibility, follows: Bool) -> Bool {
            VisibilityPolicy.canSee(
                .init(
                    isAuthor: false, postDeleted: false, authorSuspended: false, blockedEitherWay: false,
                    followsAuthor: follows, authorPrivacy: privacy, visibility: visibility))
        }
        #expect(see(.public, .public, follows: false))
        #expect(!see(.private, .public, follows: false))
        #expect(see(.private, .public, follows: true))
        #expect(!see(.public, .followers, follows: false))
        #expect(!see(.public, .private, follows: true))
    }

    @Test(
        "following feed: own posts and accepted follows, minus mutes, newest first", arguments: StorageBackend.available
    )
    func followingFeed(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let me = try await Self.user(storage, "me")
            let friend = try await Self.user(storage, "friend")
            let muted = try await Self.user(storage, "muted")
            let pending = try await Self.user(storage, "locked", privacy: .private)
            let other = try await Self.user(storage, "other")
            try await storage.graph.follow(me.id, friend.id, state: .accepted, at: Self.start)
            try await storage.graph.follow(me.id, muted.id, state: .accepted, at: Self.start)
            try await storage.graph.follow(me.id, pending.id, state: .pending, at: Self.start)
            try await storage.graph.mute(me.id, muted.id, at: Self.start)
            let mine = try await Self.post(storage, by: me, at: Self.start + 1)
            let friends = try await Self.post(storage, by: friend, visibility: .followers, at: Self.start + 2)
            _ = try await Self.post(storage, by: muted, at: Self.start + 3)
            _ = try await Self.post(storage, by: pending, visibility: .followers, at: Self.start + 4)
            _ = try await Self.post(storage, by: other, at: Self.start + 5)
            let feed = try await storage.posts.feed(FeedQuery(source: .following, limit: 20), viewer: me.id)
            #expect(feed.map(\.id) == [friends.id, mine.id])
            // Muting hides from feeds, not from the profile.
            let profile = try await storage.posts.feed(FeedQuery(source: .author(muted.id), limit: 20), viewer: me.id)
            #expect(profile.count == 1)
            // Pages whose newest candidates are hidden (a muted author's many posts, a friend's private ones)
            // still fill with the visible posts behind them, in order, across pages.
            var older: [PostID] = []
            for second in 6..<9 {
                older.append(try await Self.post(storage, by: friend, at: Self.start + Double(second)).id)
            }
            for second in 9..<19 { _ = try await Self.post(storage, by: muted, at: Self.start + Double(second)) }
            _ = try await Self.post(storage, by: friend, visibility: .private, at: Self.start + 19)
            let first = try await storage.posts.feed(FeedQuery(source: .following, limit: 2), viewer: me.id)
            #expect(first.map(\.id) == [older[2], older[1]])
            let second = try await storage.posts.feed(
                FeedQuery(source: .following, before: older[1], limit: 2), viewer: me.id)
            #expect(second.map(\.id) == [older[0], friends.id])
        }
    }

    @Test(
        "a Following page reaches past a long stretch of others' posts, in order both ways, walking or by author",
        arguments: StorageBackend.available, [false, true])
    func sparseFollowingFeed(backend: StorageBackend, followsMany: Bool) async throws {
        try await backend.withStorage { storage in
            let bulk = try #require(storage as? any BulkLoading)
            let me = BulkLoadingContractTests.account("me")
            let friend = BulkLoadingContractTests.account("friend")
            let muted = BulkLoadingContractTests.account("muted")
            let strangers = (0..<10).map { BulkLoadingContractTests.account("stranger\($0)") }
            try await bulk.loadAccounts([me, friend, muted] + strangers)
            try await storage.graph.follow(me.id, friend.id, state: .accepted, at: Self.start)
            try await storage.graph.follow(me.id, muted.id, state: .accepted, at: Self.start)
            try await storage.graph.mute(me.id, muted.id, at: Self.start)
            // Oldest first: the friend's five posts, seventy by someone muted, then 3,100 by people not followed
            // (more than PostgreSQL's walk through the newest posts), then one of mine.
            let friends = (0..<5).map { BulkLoadingContractTests.post(by: friend, minutes: Double($0), text: "f\($0)") }
            let hidden = (0..<70).map {
                BulkLoadingContractTests.post(by: muted, minutes: 10 + Double($0), text: "m\($0)")
            }
            let others = (0..<3_100).map {
                BulkLoadingContractTests.post(by: strangers[$0 % 10], minutes: 100 + Double($0), text: "s\($0)")
            }
            let mine = BulkLoadingContractTests.post(by: me, minutes: 5_000, text: "mine")
            try await bulk.loadPosts(friends + hidden + others + [mine])
            try await bulk.analyze()

            let first = try await storage.posts.feed(
                FeedQuery(source: .following, limit: 3, followsMany: followsMany), viewer: me.id)
            #expect(first.map(\.id) == [mine.id, friends[4].id, friends[3].id])
            let second = try await storage.posts.feed(
                FeedQuery(source: .following, before: friends[3].id, limit: 3, followsMany: followsMany),
                viewer: me.id)
            #expect(second.map(\.id) == [friends[2].id, friends[1].id, friends[0].id])
            let newer = try await storage.posts.feed(
                FeedQuery(source: .following, after: friends[0].id, limit: 50, followsMany: followsMany),
                viewer: me.id)
            #expect(newer.map(\.id) == [friends[1].id, friends[2].id, friends[3].id, friends[4].id, mine.id])
        }
    }

    @Test(
        "a Following page asked as of a time reads the recent month first, and pages alike across its edge",
        arguments: StorageBackend.available, [false, true])
    func recentFirstFollowingFeed(backend: StorageBackend, followsMany: Bool) async throws {
        try await backend.withStorage { storage in
            let ana = try await Self.user(storage, "ana")
            let bea = try await Self.user(storage, "bea")
            let cal = try await Self.user(storage, "cal")
            try await storage.graph.follow(ana.id, bea.id, state: .accepted, at: Self.start)
            try await storage.graph.follow(ana.id, cal.id, state: .accepted, at: Self.start)
            try await storage.graph.mute(ana.id, cal.id, at: Self.start)
            let day = 86_400.0
            // Bea posts every fifth day for 100 days; muted Cal fills the last week, so the recent month holds
            // more candidates than visible posts.
            var made: [PostID] = []
            for index in 0..<20 {
                made.append(
                    try await Self.post(storage, by: bea, "b\(index)", at: Self.start + Double(index) * 5 * day).id)
            }
            for index in 0..<70 {
                _ = try await Self.post(storage, by: cal, "c\(index)", at: Self.start + 93 * day + Double(index) * 600)
            }
            let asOf = Self.start + 101 * day
            func walk(asOf: Date?) async throws -> [PostID] {
                var seen: [PostID] = []
                var cursor: PostID?
                repeat {
                    let page = try await storage.posts.feed(
                        FeedQuery(
                            source: .following, before: cursor, limit: 4, asOf: asOf, followsMany: followsMany),
                        viewer: ana.id)
                    seen += page.map(\.id)
                    cursor = page.count == 4 ? page.last?.id : nil
                } while cursor != nil
                return seen
            }
            #expect(try await walk(asOf: asOf) == made.reversed())
            #expect(try await walk(asOf: nil) == made.reversed())
            // Asked as of long after everything: the recent month is empty, and the page comes from further back.
            #expect(try await walk(asOf: asOf + 365 * day) == made.reversed())
        }
    }

    @Test("global and tag feeds hold only what belongs there", arguments: StorageBackend.available)
    func globalAndTagFeeds(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = try await Self.user(storage, "ana")
            let fitness = try await Self.post(storage, by: ana, "squats #legday", at: Self.start + 1)
            _ = try await Self.post(storage, by: ana, "cat pictures", at: Self.start + 2, inGlobal: false, tags: [])
            _ = try await Self.post(storage, by: ana, "followers #legday", visibility: .followers, at: Self.start + 3)
            let global = try await storage.posts.feed(FeedQuery(source: .global, limit: 20), viewer: nil)
            #expect(global.map(\.id) == [fitness.id])
            let tagged = try await storage.posts.feed(FeedQuery(source: .tag("legday"), limit: 20), viewer: nil)
            #expect(tagged.map(\.id) == [fitness.id])
        }
    }

    @Test("pages never skip or repeat while new posts arrive", arguments: StorageBackend.available)
    func stablePagination(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = try await Self.user(storage, "ana")
            var made: [PostID] = []
            for index in 0..<25 {
                made.append(try await Self.post(storage, by: ana, "p\(index)", at: Self.start + Double(index)).id)
            }
            var seen: [PostID] = []
            var cursor: PostID?
            var arrived = 0
            repeat {
                let page = try await storage.posts.feed(
                    FeedQuery(source: .global, before: cursor, limit: 7), viewer: nil)
                seen += page.map(\.id)
                cursor = page.count == 7 ? page.last?.id : nil
                // Posts arrive between pages.
                for _ in 0..<3 {
                    _ = try await Self.post(storage, by: ana, "new\(arrived)", at: Self.start + 100 + Double(arrived))
                    arrived += 1
                }
            } while cursor != nil
            #expect(seen == made.reversed())
            // Gap fill: what arrived after the first item, oldest first.
            let newer = try await storage.posts.feed(
                FeedQuery(source: .global, after: made.last, limit: 50), viewer: nil)
            #expect(newer.count == arrived)
            #expect(newer.map(\.id) == newer.map(\.id).sorted { $0.rawValue.uuidString < $1.rawValue.uuidString })
        }
    }

    @Test(
        "kudos are idempotent, counted, previewed, and leave out suspended and blocked people",
        arguments: StorageBackend.available)
    func kudos(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = try await Self.user(storage, "ana")
            let bea = try await Self.user(storage, "bea")
            let cai = try await Self.user(storage, "cai")
            let dee = try await Self.user(storage, "dee")
            let eve = try await Self.user(storage, "eve")
            let post = try await Self.post(storage, by: ana)
            for (index, user) in [bea, cai, dee, eve].enumerated() {
                #expect(try await storage.posts.addKudos(post.id, by: user.id, at: Self.start + Double(index)))
            }
            #expect(try await storage.posts.addKudos(post.id, by: bea.id, at: Self.start + 9) == false)
            #expect(try await storage.posts.kudosGivers(of: post.id) == [bea.id, cai.id, dee.id, eve.id])
            #expect(try await storage.graph.peopleInBlocks().isEmpty)
            var seen = try #require(try await storage.posts.post(post.id, viewer: bea.id))
            #expect(seen.kudosCount == 4)
            #expect(seen.kudosedByMe)
            #expect(seen.kudosPreview.map(\.username) == ["bea", "cai", "dee"])
            #expect(
                try await storage.posts.kudosTarget(post.id, viewer: bea.id)
                    == KudosTarget(author: ana.id, kudosCount: 4))
            // Suspended givers and people the viewer blocked disappear from count and preview.
            try await storage.accounts.setSuspended(cai.id, at: Self.start)
            try await storage.graph.block(ana.id, dee.id, at: Self.start)
            #expect(try await storage.graph.peopleInBlocks() == [ana.id, dee.id])
            seen = try #require(try await storage.posts.post(post.id, viewer: ana.id))
            #expect(seen.kudosCount == 2)
            #expect(seen.kudosPreview.map(\.username) == ["bea", "eve"])
            // What giving kudos reads follows the same rules: the count as the viewer sees it, and nothing for
            // someone blocked, a private post of another, or a deleted post.
            #expect(
                try await storage.posts.kudosTarget(post.id, viewer: ana.id)
                    == KudosTarget(author: ana.id, kudosCount: 2))
            #expect(try await storage.posts.kudosTarget(post.id, viewer: dee.id) == nil)
            let diary = try await Self.post(storage, by: ana, "rest day", visibility: .private, at: Self.start + 1)
            #expect(try await storage.posts.kudosTarget(diary.id, viewer: bea.id) == nil)
            #expect(try await storage.posts.kudosTarget(diary.id, viewer: ana.id)?.author == ana.id)
            try await storage.posts.tombstone(diary.id, at: Self.start + 2)
            #expect(try await storage.posts.kudosTarget(diary.id, viewer: ana.id) == nil)
            // Someone who blocked the viewer leaves the count as well, and a block both ways (or a blocked person
            // suspended too) takes their kudos away once, not twice.
            try await storage.graph.block(eve.id, ana.id, at: Self.start)
            #expect(try await storage.posts.kudosTarget(post.id, viewer: ana.id)?.kudosCount == 1)
            try await storage.graph.block(ana.id, eve.id, at: Self.start)
            try await storage.accounts.setSuspended(dee.id, at: Self.start)
            #expect(try await storage.posts.kudosTarget(post.id, viewer: ana.id)?.kudosCount == 1)
            #expect(try await storage.posts.post(post.id, viewer: ana.id)?.kudosCount == 1)
            #expect(try await storage.posts.removeKudos(post.id, by: bea.id))
            #expect(try await storage.posts.removeKudos(post.id, by: bea.id) == false)
            #expect(try await storage.posts.kudosTarget(post.id, viewer: ana.id)?.kudosCount == 0)
        }
    }

    @Test(
        "a post's kudos count follows kudos given and taken back, suspensions lifted and blocks either way",
        arguments: StorageBackend.available)
    func kudosCountIsKept(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = try await Self.user(storage, "ana")
            let viewer = try await Self.user(storage, "vic")
            let post = try await Self.post(storage, by: ana)
            let other = try await Self.post(storage, by: ana, "another", at: Self.start + 1)
            var givers: [AccountRecord] = []
            for index in 0..<30 {
                let giver = try await Self.user(storage, "giver\(index)")
                givers.append(giver)
                #expect(try await storage.posts.addKudos(post.id, by: giver.id, at: Self.start + Double(index)))
            }
            #expect(try await storage.posts.addKudos(other.id, by: givers[0].id, at: Self.start + 40))
            // The same count on every read that shows one: a post, a feed page, and what giving kudos reads.
            func counts(_ id: UserID?) async throws -> [Int] {
                let single = try #require(try await storage.posts.post(post.id, viewer: id))
                let page = try await storage.posts.feed(
                    FeedQuery(source: .author(ana.id), limit: 10), viewer: id)
                var seen = [single.kudosCount] + page.filter { $0.id == post.id }.map(\.kudosCount)
                if let id {
                    seen.append(try #require(try await storage.posts.kudosTarget(post.id, viewer: id)).kudosCount)
                }
                return seen
            }
            #expect(try await counts(nil) == [30, 30])
            #expect(try await counts(viewer.id) == [30, 30, 30])

            // Taken back, and given twice: counted once each.
            for giver in givers[25...] { #expect(try await storage.posts.removeKudos(post.id, by: giver.id)) }
            #expect(try await storage.posts.removeKudos(post.id, by: givers[29].id) == false)
            #expect(try await storage.posts.addKudos(post.id, by: givers[0].id, at: Self.start + 50) == false)
            #expect(try await counts(viewer.id) == [25, 25, 25])

            // A suspension hides the giver's kudos from everyone until it is lifted.
            try await storage.accounts.setSuspended(givers[1].id, at: Self.start)
            #expect(try await counts(nil) == [24, 24])
            #expect(try await counts(viewer.id) == [24, 24, 24])
            try await storage.accounts.setSuspended(givers[1].id, at: nil)
            #expect(try await counts(viewer.id) == [25, 25, 25])

            // Blocks hide a giver from the viewer in the block only, whichever way it goes; one each way
            // hides that giver once.
            try await storage.graph.block(viewer.id, givers[2].id, at: Self.start)
            try await storage.graph.block(givers[3].id, viewer.id, at: Self.start)
            try await storage.graph.block(viewer.id, givers[4].id, at: Self.start)
            try await storage.graph.block(givers[4].id, viewer.id, at: Self.start)
            #expect(try await counts(viewer.id) == [22, 22, 22])
            #expect(try await counts(ana.id) == [25, 25, 25])
            #expect(try await counts(nil) == [25, 25])
            try await storage.graph.unblock(viewer.id, givers[2].id)
            #expect(try await counts(viewer.id) == [23, 23, 23])

            // Someone hidden who gave no kudos to this post takes nothing off it; the other post keeps its own.
            try await storage.graph.block(viewer.id, givers[29].id, at: Self.start)
            #expect(try await counts(viewer.id) == [23, 23, 23])
            #expect(try await storage.posts.post(other.id, viewer: viewer.id)?.kudosCount == 1)
        }
    }

    @Test(
        "kudos given before counts were kept are counted once the database is migrated",
        arguments: StorageBackend.available)
    func kudosCountIsBackfilled(backend: StorageBackend) async throws {
        try await backend.withStorage(migratedBefore: "2026-11-24 kudos counted") { storage in
            let ana = try await Self.user(storage, "ana")
            let bea = try await Self.user(storage, "bea")
            let cai = try await Self.user(storage, "cai")
            let post = try await Self.post(storage, by: ana)
            let other = try await Self.post(storage, by: ana, "another", at: Self.start + 1)
            let quiet = try await Self.post(storage, by: ana, "no kudos", at: Self.start + 2)
            #expect(try await storage.posts.addKudos(post.id, by: bea.id, at: Self.start))
            #expect(try await storage.posts.addKudos(post.id, by: cai.id, at: Self.start))
            #expect(try await storage.posts.addKudos(other.id, by: bea.id, at: Self.start))
            try await storage.migrate()
            #expect(try await storage.posts.post(post.id, viewer: nil)?.kudosCount == 2)
            #expect(try await storage.posts.post(other.id, viewer: nil)?.kudosCount == 1)
            #expect(try await storage.posts.post(quiet.id, viewer: nil)?.kudosCount == 0)
            // From there the kept count goes on.
            #expect(try await storage.posts.removeKudos(post.id, by: cai.id))
            #expect(try await storage.posts.addKudos(quiet.id, by: cai.id, at: Self.start))
            #expect(try await storage.posts.post(post.id, viewer: nil)?.kudosCount == 1)
            #expect(try await storage.posts.post(quiet.id, viewer: nil)?.kudosCount == 1)
        }
    }

    @Test(
        "a kudos and its notification in one unit are stored together or not at all; a repeated kudos adds nothing",
        arguments: StorageBackend.available)
    func kudosWithNotifications(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = try await Self.user(storage, "ana")
            let bea = try await Self.user(storage, "bea")
            let cai = try await Self.user(storage, "cai")
            let post = try await Self.post(storage, by: ana)
            var offset = 0.0
            func planned(to recipient: UserID, from giver: UserID) -> PlannedNotification {
                offset += 1
                let record = NotificationRecord(
                    id: .generate(at: Self.start + offset), recipientID: recipient, type: .kudos, actorID: giver,
                    postID: post.id, groupKey: "kudos-\(post.id)", dedupeKey: "kudos-\(post.id)-\(giver)",
                    createdAt: Self.start + offset)
                return PlannedNotification(
                    record: record,
                    deliveries: [ScheduledDelivery(channel: .email, batchKey: nil, runAt: Self.start + 3600)])
            }
            // Given a kudos and its notification as `PostService.setKudos` writes them: one unit.
            func give(_ giver: AccountRecord, _ notification: PlannedNotification, at time: Double) async throws -> Bool
            {
                try await storage.write {
                    guard try await storage.posts.addKudos(post.id, by: giver.id, at: Self.start + time) else {
                        return false
                    }
                    _ = try await storage.notifications.insert(notification.record, deliveries: notification.deliveries)
                    return true
                }
            }
            let first = planned(to: ana.id, from: bea.id)
            #expect(try await give(bea, first, at: 1))
            #expect(try await storage.notifications.notification(first.record.id) == first.record)
            #expect(try await storage.deliveries.pendingJobs(of: ana.id).count == 1)

            // Repeated: nothing new.
            #expect(try await !storage.posts.addKudos(post.id, by: bea.id, at: Self.start + 2))

            // A notification that cannot be stored (its recipient does not exist) takes the kudos with it.
            let orphan = planned(to: UserID.generate(at: Self.start), from: cai.id)
            await #expect(throws: (any Error).self) { try await give(cai, orphan, at: 4) }
            #expect(try await storage.posts.kudosGivers(of: post.id) == [bea.id])
            #expect(try await storage.posts.addKudos(post.id, by: cai.id, at: Self.start + 5))
        }
    }

    @Test("comments and replies list and count alike, without hidden people", arguments: StorageBackend.available)
    func comments(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = try await Self.user(storage, "ana")
            let bea = try await Self.user(storage, "bea")
            let troll = try await Self.user(storage, "troll")
            let post = try await Self.post(storage, by: ana)
            func comment(
                _ author: AccountRecord, _ text: String, parent: CommentID? = nil, _ offset: Double
            )
                async throws -> CommentRecord
            {
                let record = CommentRecord(
                    id: .generate(at: Self.start + offset), postID: post.id, parentID: parent, authorID: author.id,
                    text: text, createdAt: Self.start + offset)
                try await storage.posts.insertComment(record)
                return record
            }
            let first = try await comment(bea, "nice", 1)
            _ = try await comment(ana, "thanks", parent: first.id, 2)
            let rude = try await comment(troll, "meh", 3)
            _ = try await comment(bea, "agreed?", parent: rude.id, 4)
            let gone = try await comment(bea, "oops", 5)
            try await storage.posts.tombstoneComment(gone.id, at: Self.start + 6)
            #expect(try await storage.posts.comment(first.id)?.text == "nice")
            var listed = try await storage.posts.comments(on: post.id, viewer: ana.id, after: nil, limit: 50)
            #expect(listed.map(\.text) == ["nice", "thanks", "meh", "agreed?"])
            // Ana blocks the troll: its comment and the replies under it vanish from her list and her count.
            try await storage.graph.block(ana.id, troll.id, at: Self.start)
            listed = try await storage.posts.comments(on: post.id, viewer: ana.id, after: nil, limit: 50)
            #expect(listed.map(\.text) == ["nice", "thanks"])
            #expect(try await storage.posts.post(post.id, viewer: ana.id)?.commentsCount == 2)
            // Paging
            let firstPage = try await storage.posts.comments(on: post.id, viewer: bea.id, after: nil, limit: 1)
            let next = try await storage.posts.comments(
                on: post.id, viewer: bea.id, after: firstPage.last?.id, limit: 1)
            #expect(next.map(\.text) == ["thanks"])
            // The other way round: the troll blocks Bea, and its comment and the reply under it leave hers.
            try await storage.graph.block(troll.id, bea.id, at: Self.start)
            listed = try await storage.posts.comments(on: post.id, viewer: bea.id, after: nil, limit: 50)
            #expect(listed.map(\.text) == ["nice", "thanks"])
            #expect(try await storage.posts.post(post.id, viewer: bea.id)?.commentsCount == 2)
            // Bea suspended: her comments, and Ana's reply under hers, leave everyone's.
            try await storage.accounts.setSuspended(bea.id, at: Self.start)
            listed = try await storage.posts.comments(on: post.id, viewer: nil, after: nil, limit: 50)
            #expect(listed.map(\.text) == ["meh"])
            #expect(try await storage.posts.post(post.id, viewer: nil)?.commentsCount == 1)
        }
    }

    @Test("follows, requests, blocks and lists", arguments: StorageBackend.available)
    func graph(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = try await Self.user(storage, "ana", privacy: .private)
            let bea = try await Self.user(storage, "bea")
            let cai = try await Self.user(storage, "cai")
            #expect(try await storage.graph.follow(bea.id, ana.id, state: .pending, at: Self.start) == .pending)
            #expect(try await storage.graph.follow(bea.id, ana.id, state: .accepted, at: Self.start) == .pending)
            #expect(try await storage.graph.relationship(of: bea.id, with: ana.id).following == .requested)
            let requests = try await storage.graph.followers(
                of: ana.id, state: .pending, viewer: ana.id, after: nil, limit: 10)
            #expect(requests.map(\.account.username) == ["bea"])
            #expect(try await storage.graph.acceptFollow(bea.id, ana.id))
            #expect(try await storage.graph.acceptFollow(bea.id, ana.id) == false)
            #expect(try await storage.graph.relationship(of: ana.id, with: bea.id).followedBy)
            try await storage.graph.follow(cai.id, ana.id, state: .accepted, at: Self.start + 1)
            var counts = try await storage.graph.counts(of: ana.id)
            #expect(counts.followers == 2)
            // Newest first, paged by cursor.
            let page1 = try await storage.graph.followers(
                of: ana.id, state: .accepted, viewer: nil, after: nil, limit: 1)
            #expect(page1.map(\.account.username) == ["cai"])
            let page2 = try await storage.graph.followers(
                of: ana.id, state: .accepted, viewer: nil, after: page1.last?.cursor, limit: 1)
            #expect(page2.map(\.account.username) == ["bea"])
            // A block removes follows both ways.
            try await storage.graph.follow(ana.id, cai.id, state: .accepted, at: Self.start)
            try await storage.graph.block(cai.id, ana.id, at: Self.start)
            let relation = try await storage.graph.relationship(of: cai.id, with: ana.id)
            #expect(relation.blocking && relation.following == .none && !relation.followedBy)
            counts = try await storage.graph.counts(of: ana.id)
            #expect(counts.followers == 1 && counts.following == 0)
            // Lists leave out people blocked either way with the viewer.
            let seenByCai = try await storage.graph.followers(
                of: ana.id, state: .accepted, viewer: cai.id, after: nil, limit: 10)
            #expect(seenByCai.map(\.account.username) == ["bea"])
            try await storage.graph.unblock(cai.id, ana.id)
            try await storage.graph.mute(cai.id, bea.id, at: Self.start)
            #expect(try await storage.graph.relationship(of: cai.id, with: bea.id).muting)
            try await storage.graph.acceptPendingFollows(of: ana.id)
        }
    }

    @Test(
        "posts round-trip with their workout, and edits and personal bests persist", arguments: StorageBackend.available
    )
    func postRoundTrip(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = try await Self.user(storage, "ana")
            let workout = WorkoutRecord(
                title: "Leg day", type: .strength, startTime: Self.start, endTime: Self.start + 3600,
                exercises: [ExerciseEntry(name: "Squat", sets: [WorkoutSet(weightKg: 100, reps: 5, rpe: 8)])])
            var record = PostRecord(
                id: .generate(at: Self.start), authorID: ana.id, kind: .workout, text: "done #legday",
                visibility: .public, workout: workout,
                records: [PersonalRecord(exercise: "Squat", kind: .heaviestWeight, value: 100, achievedAt: Self.start)],
                hashtags: ["legday"], mentions: [], textHash: "h", inGlobal: true, performedAt: Self.start,
                createdAt: Self.start)
            try await storage.posts.insert(record)
            #expect(try await storage.posts.record(record.id) == record)
            record.text = "edited #squats"
            record.hashtags = ["squats"]
            record.editedAt = Self.start + 10
            try await storage.posts.update(record)
            #expect(try await storage.posts.record(record.id) == record)
            let post = try #require(try await storage.posts.post(record.id, viewer: nil))
            #expect(post.workout == workout)
            #expect(post.personalRecords.count == 1)
            #expect(try await storage.posts.feed(FeedQuery(source: .tag("legday"), limit: 5), viewer: nil).isEmpty)
            #expect(try await storage.posts.feed(FeedQuery(source: .tag("squats"), limit: 5), viewer: nil).count == 1)
            #expect(try await storage.posts.countPosts(by: ana.id, since: Self.start) == 1)
            #expect(try await storage.posts.hasPost(by: ana.id, textHash: "h", since: Self.start))
            let bests = [
                "squat": ExerciseBests(
                    heaviestKg: 100, bestEstimatedOneRepMaxKg: 116.7, mostRepsAtWeight: ["100.00": 5])
            ]
            try await storage.posts.savePersonalBests(bests, of: ana.id)
            #expect(try await storage.posts.personalBests(of: ana.id) == bests)
        }
    }

    @Test(
        "search finds names by trigram or prefix, tags with public counts, and post words",
        arguments: StorageBackend.available)
    func search(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = try await Self.user(storage, "anastasia")
            let hidden = try await Self.user(storage, "anabel")
            try await storage.accounts.setSuspended(hidden.id, at: Self.start)
            _ = try await Self.post(storage, by: ana, "Heavy squats", tags: ["legday", "legs"])
            _ = try await Self.post(storage, by: ana, "Quiet squats", visibility: .followers, tags: ["legday"])
            #expect(
                try await storage.search.users(matching: "nastas", viewer: nil, limit: 10).map(\.username) == [
                    "anastasia"
                ])
            #expect(
                try await storage.search.users(matching: "an", viewer: nil, limit: 10).map(\.username) == ["anastasia"])
            #expect(try await storage.search.users(matching: "a_b%", viewer: nil, limit: 10).isEmpty)
            let tags = try await storage.search.tags(prefix: "leg", viewer: nil, limit: 10)
            #expect(tags == [TagCount(tag: "legday", postsCount: 1), TagCount(tag: "legs", postsCount: 1)])
            // Tag counts are of public posts only, whoever asks.
            #expect(try await storage.search.tags(prefix: "leg", viewer: ana.id, limit: 10).first?.postsCount == 1)
            #expect(
                try await storage.search.posts(matching: "squats", viewer: nil, limit: 10).map(\.text) == [
                    "Heavy squats"
                ])
            #expect(try await storage.search.posts(matching: "squats", viewer: ana.id, limit: 10).count == 2)
        }
    }
}
