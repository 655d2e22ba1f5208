import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// What a notification about a group's post says, in the inbox, in what is stored, and in the push and email
/// that carry it: for a post only members may read, the group's name and nothing of the post; never a child.
@Suite("Notification text of group posts")
struct GroupNotificationTextTests {
    static let phone = String(repeating: "c3", count: 32)

    /// Everything stored for `user`'s inbox: each notification's `detail`, which the inbox, APNs, Web Push and
    /// email are made from.
    static func storedDetails(_ api: APIClient, _ user: UserID) async throws -> [String] {
        var details: [String] = []
        for row in try await api.storage.notifications.groups(of: user, before: nil, limit: 100) {
            let members = try await api.storage.notifications.members(of: user, groupKey: row.groupKey, limit: 50)
            details += members.map(\.detail)
        }
        return details
    }

    /// Everything that left the server in `sent`, as one text: titles, bodies, subjects, plain text and HTML.
    static func everything(_ sent: [RecordingTransport.Sent]) -> String {
        sent.map { [$0.message.title, $0.message.body, $0.message.subject, $0.message.text, $0.message.html] }
            .flatMap { $0 }.joined(separator: "\n")
    }

    static func registerPhone(_ api: APIClient, _ token: String, _ device: String = phone) async throws {
        let added = try await api.call(
            .post, "/api/v1/notifications/devices", token: token, body: DeviceRegistration(token: device))
        #expect(added.status == .noContent)
    }

    @Test(
        "a mention in a request or private group's post names the group, never the post's words or the child",
        arguments: StorageBackend.available)
    func mentionInMembersOnlyGroup(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountAge = 0 }) { api in
            for access in [GroupAccess.request, .private] {
                // Given Ana's group, Mem (with an iPhone) and Dee (who reads mentions in the morning's digest
                // email) in it, and in the private group her daughter Maya's profile
                let ana = try await api.user("ana_\(access)")
                let mem = try await api.user("mem_\(access)")
                let dee = try await api.user("dee_\(access)")
                try await Self.registerPhone(api, mem)
                let daily = try await api.call(
                    .put, "/api/v1/notifications/preferences", token: dee, json: #"{"types":{"mention":"daily"}}"#)
                #expect(daily.status == .ok)
                let family = try await api.createGroup(ana, "Family \(access)", access: access)
                try await api.addMember(mem, username: "mem_\(access)", to: family, admin: ana)
                try await api.addMember(dee, username: "dee_\(access)", to: family, admin: ana)
                var children: [ChildProfileID]?
                if access == .private {
                    let maya = try await api.call(
                        .post, "/api/v1/me/children", token: ana,
                        body: CreateChildProfileRequest(name: "Maya", birthYear: 2017)
                    ).decode(ChildProfile.self)
                    children = [maya.id]
                }
                // When Ana posts about Maya, mentioning both
                let made = try await api.call(
                    .post, "/api/v1/posts", token: ana,
                    body: CreatePostRequest(
                        kind: .note, text: "Maya swam @mem_\(access) @dee_\(access)", groupID: family.id,
                        childIDs: children))
                #expect(made.status == .created)
                // Then their inboxes name the group, and say nothing of the post
                let expected = "ana_\(access) mentioned you in Family \(access)"
                for token in [mem, dee] {
                    let mention = try await NotificationsAPITests.inbox(api, token).first { $0.type == .mention }
                    #expect(mention?.text == expected, "\(access)")
                }
                // And nothing of the post is stored for any surface to show later
                for name in ["mem_\(access)", "dee_\(access)"] {
                    let details = try await Self.storedDetails(api, try await api.userID(name, token: ana))
                    #expect(!details.isEmpty)
                    #expect(details.allSatisfy { !$0.contains("Maya") && !$0.contains("swam") }, "\(details)")
                }
                // And Mem's push says the same; Dee's digest email the next morning too
                let transport = RecordingTransport()
                try await NotificationDeliveryTests.runner(api, transport).runDue()
                api.clock.advance(by: 25 * 3600)
                try await NotificationDeliveryTests.runner(api, transport).runDue()
                let pushes = transport.sent.filter { $0.target == .apns(token: Self.phone) }
                #expect(pushes.map(\.message.body).contains(expected), "\(access)")
                let mails = transport.sent.filter { $0.target == .email(address: "dee_\(access)@example.com") }
                #expect(mails.count == 1, "\(access)")
                #expect(mails.first?.message.text.contains(expected) == true, "\(access)")
                let sent = Self.everything(transport.sent)
                #expect(!sent.contains("Maya") && !sent.contains("swam"), "\(sent)")
                _ = try await api.call(.delete, "/api/v1/notifications/devices/\(Self.phone)", token: mem)
            }
        }
    }

    @Test(
        "comments, replies, kudos and records on a members-only group's workout name the group, nothing of it",
        arguments: StorageBackend.available)
    func conversationInMembersOnlyGroup(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountAge = 0 }) { api in
            // Given Ana (with an iPhone) logging a record-setting workout to her request-only team, with Bea and
            // Cyd in it
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let cyd = try await api.user("cyd")
            try await Self.registerPhone(api, ana)
            let team = try await api.createGroup(ana, "Team", access: .request)
            try await api.addMember(bea, username: "bea", to: team, admin: ana)
            try await api.addMember(cyd, username: "cyd", to: team, admin: ana)
            // (a public baseline first, for the team's workout to beat; and the pushes of their asking to join
            // sent already)
            try await api.workout(ana, "Baseline", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: api.clock.now - 7200)
            try await NotificationDeliveryTests.runner(api, RecordingTransport()).runDue()
            let start = api.clock.now - 3600
            let workout = WorkoutRecord(
                title: "Secret Squat", type: .strength, startTime: start, endTime: start + 1800,
                exercises: [ExerciseEntry(name: "Back Squat", sets: [WorkoutSet(weightKg: 140, reps: 3)])])
            let made = try await api.call(
                .post, "/api/v1/posts", token: ana,
                body: CreatePostRequest(kind: .workout, text: "Felt heavy", workout: workout, groupID: team.id))
            #expect(made.status == .created)
            let post = try made.decode(Post.self)
            // When Bea comments mentioning Cyd, Ana replies, and Cyd gives kudos
            let comment = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: bea,
                body: CreateCommentRequest(text: "Lovely depth @cyd")
            ).decode(SpotterModels.Comment.self)
            let reply = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: ana,
                body: CreateCommentRequest(text: "Thanks, knees hurt", parentID: comment.id))
            #expect(reply.status == .created)
            #expect(try await api.call(.post, "/api/v1/posts/\(post.id)/kudos", token: cyd).status == .ok)
            // Then each is told where, and nothing of what was said or lifted
            let anas = try await NotificationsAPITests.inbox(api, ana).filter { $0.type != .groupJoinRequest }
            #expect(
                Set(anas.map(\.text)) == [
                    "bea commented on your post in Team", "cyd gave kudos to your post in Team",
                    "New personal record in Team",
                ])
            #expect(
                try await NotificationsAPITests.inbox(api, bea).filter { $0.type == .reply }.map(\.text) == [
                    "ana replied to your comment in Team"
                ])
            #expect(
                try await NotificationsAPITests.inbox(api, cyd).filter { $0.type == .mention }.map(\.text) == [
                    "bea mentioned you in Team"
                ])
            // And nothing of it is stored
            let secrets = ["Lovely", "depth", "knees", "Secret", "Squat", "140"]
            for name in ["ana", "bea", "cyd"] {
                let details = try await Self.storedDetails(api, try await api.userID(name, token: ana))
                #expect(details.allSatisfy { detail in !secrets.contains { detail.contains($0) } }, "\(details)")
            }
            // And Ana's pushes (the kudos after their batching window) carry none of it either
            let transport = RecordingTransport()
            try await NotificationDeliveryTests.runner(api, transport).runDue()
            api.clock.advance(by: 16 * 60)
            try await NotificationDeliveryTests.runner(api, transport).runDue()
            #expect(
                Set(transport.sent.map(\.message.body)) == [
                    "bea commented on your post in Team", "cyd gave kudos to your post in Team",
                    "New personal record in Team",
                ])
            let sent = Self.everything(transport.sent)
            #expect(!secrets.contains { sent.contains($0) }, "\(sent)")
        }
    }

    @Test(
        "an open group's posts and comments are quoted as public ones are: anyone may read them",
        arguments: StorageBackend.available)
    func openGroupQuotes(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountAge = 0 }) { api in
            // Given an open club with Ana and Bea in it
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let club = try await api.createGroup(ana, "Club", access: .open)
            try await api.joinGroup(bea, club)
            // When Ana mentions Bea in a post of the club, and Bea comments on it
            let post = try await api.postToGroup(ana, club, "Track at six @bea")
            _ = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: bea, body: CreateCommentRequest(text: "See you"))
            // Then both are quoted
            #expect(
                try await NotificationsAPITests.inbox(api, bea).first { $0.type == .mention }?.text
                    == "ana mentioned you: “Track at six @bea”")
            #expect(
                try await NotificationsAPITests.inbox(api, ana).first { $0.type == .comment }?.text
                    == "bea commented on your post: “See you”")
        }
    }

    @Test(
        "a sealed comment in an encrypted group names the group, with no empty quote",
        arguments: StorageBackend.available)
    func sealedComment(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's encrypted family, with Ben in it, and a sealed post of Ana's
            let ana = try await api.e2ePerson("ana")
            let ben = try await api.e2ePerson("ben")
            try await Self.registerPhone(api, ana.token)
            let (group, epoch0, create) = try await api.encryptedGroup("The Kellers", owner: ana)
            try await api.addMember(ben.token, username: "ben", to: group, admin: ana.token)
            let add = try ana.signer.sign(
                .add(user: ben.id.rawValue, role: .member), on: .group(group.id.rawValue), after: create, at: api.now)
            _ = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                body: E2EGroupChangeRequest(statements: [add.wire]))
            let postID = PostID.generate(at: api.clock.now)
            let (sealed, _) = try sealedContent(
                "first swim", group: group, postID: postID.rawValue, epoch: 0, key: epoch0)
            let posted = try await api.call(
                .post, "/api/v1/posts", token: ana.token,
                body: CreatePostRequest(kind: .note, groupID: group.id, sealed: sealed, id: postID))
            #expect(posted.status == .created)
            // When Ben comments, sealed
            let commentID = CommentID.generate(at: api.clock.now)
            let (comment, _) = try sealedContent(
                "lovely", group: group, postID: commentID.rawValue, epoch: 0, key: epoch0)
            let commented = try await api.call(
                .post, "/api/v1/posts/\(postID)/comments", token: ben.token,
                body: CreateCommentRequest(text: "", sealed: comment, id: commentID))
            #expect(commented.status == .created)
            // Then Ana's inbox and push name the group, and quote nothing
            let told = try await NotificationsAPITests.inbox(api, ana.token).first { $0.type == .comment }
            #expect(told?.text == "ben commented on your post in The Kellers")
            let transport = RecordingTransport()
            try await NotificationDeliveryTests.runner(api, transport).runDue()
            #expect(
                transport.sent.map(\.message.body).filter { $0.contains("commented") } == [
                    "ben commented on your post in The Kellers"
                ])
            #expect(!Self.everything(transport.sent).contains("“"))
        }
    }
}
