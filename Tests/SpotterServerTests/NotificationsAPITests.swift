import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// The inbox over HTTP: who is told of what, grouping, counts, marks, archive and preferences.
@Suite("Notifications over HTTP")
struct NotificationsAPITests {
    static func inbox(_ api: APIClient, _ token: String) async throws -> [NotificationGroup] {
        let response = try await api.call(.get, "/api/v1/notifications", token: token)
        guard response.status == .ok else { throw UnexpectedStatus(response: response) }
        return try response.decode(Page<NotificationGroup>.self).items
    }

    static func counts(_ api: APIClient, _ token: String) async throws -> NotificationCounts {
        try await api.call(.get, "/api/v1/notifications/counts", token: token).decode(NotificationCounts.self)
    }

    @Test(
        "kudos from two people make one group with the newest first; seen, read and archive clear it",
        arguments: StorageBackend.available)
    func kudosGroup(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountAge = 0 }) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let cy = try await api.user("cyd")
            try await api.workout(ana, "Baseline", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: api.clock.now - 7200)
            let run = try await api.workout(
                ana, "Morning Run", sets: [WorkoutSet(weightKg: 110, reps: 5)], at: api.clock.now - 3600)
            #expect(try await api.call(.post, "/api/v1/posts/\(run.id)/kudos", token: bea).status == .ok)
            api.clock.advance(by: 1)
            #expect(try await api.call(.post, "/api/v1/posts/\(run.id)/kudos", token: cy).status == .ok)
            // Taking kudos back and giving them again tells nobody twice.
            _ = try await api.call(.delete, "/api/v1/posts/\(run.id)/kudos", token: bea)
            _ = try await api.call(.post, "/api/v1/posts/\(run.id)/kudos", token: bea)

            let groups = try await Self.inbox(api, ana).filter { $0.type == .kudos }
            #expect(groups.count == 1)
            let group = try #require(groups.first)
            #expect(group.notificationsCount == 2 && group.unread)
            #expect(group.sampleActors.map(\.username) == ["cyd", "bea"])
            #expect(group.text == "cyd and bea gave kudos to your Morning Run")
            #expect(group.postID == run.id)
            #expect(try await Self.inbox(api, bea).isEmpty, "the giver is told nothing")

            let all = try await Self.counts(api, ana)
            #expect(all == NotificationCounts(unread: 3, unseen: 3), "two kudos and the record Ana set")
            let record = try await Self.inbox(api, ana).first { $0.type == .personalRecord }
            #expect(record?.text == "New personal record: Back Squat 110 kg, Back Squat estimated 1RM 128.3 kg")
            let seen = try await api.call(.post, "/api/v1/notifications/seen", token: ana, json: "{}")
            #expect(try seen.decode(NotificationCounts.self) == NotificationCounts(unread: all.unread, unseen: 0))
            let read = try await api.call(.post, "/api/v1/notifications/groups/\(group.groupKey)/read", token: ana)
            #expect(try read.decode(NotificationCounts.self).unread == all.unread - 2)
            let archived = try await api.call(
                .post, "/api/v1/notifications/groups/\(group.groupKey)/archive", token: ana)
            #expect(archived.status == .ok)
            #expect(try await Self.inbox(api, ana).allSatisfy { $0.groupKey != group.groupKey })
            let again = try await api.call(.post, "/api/v1/notifications/groups/\(group.groupKey)/archive", token: ana)
            #expect(again.status == .notFound)
            let others = try await api.call(.post, "/api/v1/notifications/groups/\(group.groupKey)/archive", token: bea)
            #expect(others.status == .notFound, "nobody touches another person's inbox")
        }
    }

    @Test(
        "comments, replies and mentions reach the right people; blocks and privacy keep the rest out",
        arguments: StorageBackend.available)
    func conversation(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountAge = 0 }) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let cy = try await api.user("cyd")
            let eve = try await api.user("eve")
            let post = try await api.post(ana, "Leg day with @cyd #legday")
            let comment = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: bea, body: CreateCommentRequest(text: "Strong!")
            ).decode(SpotterModels.Comment.self)
            _ = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: ana,
                body: CreateCommentRequest(text: "Thanks @bea", parentID: comment.id))

            let mention = try #require(try await Self.inbox(api, cy).first)
            #expect(mention.type == .mention && mention.text == "ana mentioned you: “Leg day with @cyd #legday”")
            let comments = try await Self.inbox(api, ana)
            #expect(comments.map(\.type) == [.comment])
            #expect(comments.first?.text == "bea commented on your post: “Strong!”")
            let reply = try await Self.inbox(api, bea)
            #expect(reply.map(\.type) == [.reply], "a reply that mentions her tells her once")
            #expect(reply.first?.text == "ana replied: “Thanks @bea”")

            // A followers-only post mentioning someone who may not see it tells them nothing.
            _ = try await api.post(ana, "Secret plan with @eve", visibility: .followers)
            #expect(try await Self.inbox(api, eve).isEmpty)

            // Blocking Bea takes her comment out of Ana's inbox and counts.
            let block = try await api.call(.post, "/api/v1/users/bea/block", token: ana)
            #expect(block.status == .ok)
            #expect(try await Self.inbox(api, ana).isEmpty)
            #expect(try await Self.counts(api, ana).unread == 0)
            #expect(try await api.call(.get, "/api/v1/notifications", token: nil).status == .unauthorized)
        }
    }

    @Test("follows, follow requests and a sign-in from a new device", arguments: StorageBackend.available)
    func followsAndSecurity(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            try await api.follow(bea, "ana")
            _ = try await api.call(.patch, "/api/v1/me", token: bea, json: #"{"privacy":"private"}"#)
            try await api.follow(ana, "bea")
            #expect(try await Self.inbox(api, ana).map(\.text) == ["bea started following you"])
            #expect(try await Self.inbox(api, bea).map(\.text) == ["ana asked to follow you"])

            // The device Ana signed up on is known; another one is news, once.
            #expect(try await api.signin("ana").status == .ok)
            var phone = HTTPFields()
            phone[.userAgent] = "SpotterApp/1.0 (iPhone)"
            #expect(try await api.signin("ana", headers: phone).status == .ok)
            #expect(try await api.signin("ana", headers: phone).status == .ok)
            let alerts = try await Self.inbox(api, ana).filter { $0.type == .securityNewDevice }
            #expect(alerts.map(\.text) == ["New sign-in to your account: Spotter for iOS"])
        }
    }

    @Test(
        "preferences: defaults, a bad field refused whole and named, a disabled type tells nothing",
        arguments: StorageBackend.available)
    func preferences(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let defaults = try await api.call(.get, "/api/v1/notifications/preferences", token: ana)
                .decode(NotificationPreferences.self)
            #expect(defaults.setting(for: .kudos) == .batched && defaults.maxPerHour == 10)
            #expect(defaults.setting(for: .followRequest) == .immediate && !defaults.quietHours.enabled)

            let bad = try await api.call(
                .put, "/api/v1/notifications/preferences", token: ana,
                json:
                    #"{"types":{"follow":"disabled"},"quiet_hours":{"start":"25:00","time_zone":"Mars/Olympus"},"max_per_hour":0}"#
            )
            #expect(bad.status == .unprocessableContent)
            #expect(
                try bad.problem().errors?.map(\.field) == [
                    "quiet_hours.start", "quiet_hours.time_zone", "max_per_hour",
                ])
            let unknown = try await api.call(
                .put, "/api/v1/notifications/preferences", token: ana, json: #"{"types":{"fireworks":"enabled"}}"#)
            #expect(unknown.status == .badRequest)
            #expect(try unknown.problem().errors?.first?.field == "types")
            let kept = try await api.call(.get, "/api/v1/notifications/preferences", token: ana)
                .decode(NotificationPreferences.self)
            #expect(kept == defaults, "a refused change changes nothing")

            let good = try await api.call(
                .put, "/api/v1/notifications/preferences", token: ana,
                json: #"{"types":{"follow":"disabled"},"quiet_hours":{"enabled":true,"start":"22:30","end":"06:00"}}"#)
            #expect(good.status == .ok)
            let saved = try good.decode(NotificationPreferences.self)
            #expect(saved.setting(for: .follow) == .disabled && saved.quietHours.start == "22:30")
            try await api.follow(bea, "ana")
            #expect(try await Self.inbox(api, ana).isEmpty)
        }
    }

    @Test(
        "follow requests can't be switched off: an Off is refused naming the field, and they keep coming",
        arguments: StorageBackend.available)
    func followRequestsStayOn(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, private
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            _ = try await api.call(.patch, "/api/v1/me", token: ana, json: #"{"privacy":"private"}"#)
            // When she asks for follow requests to be off (and kudos off with them)
            let off = try await api.call(
                .put, "/api/v1/notifications/preferences", token: ana,
                json: #"{"types":{"follow_request":"disabled","kudos":"disabled"}}"#)
            // Then it is refused, naming the field in words, and nothing changes
            #expect(off.status == .unprocessableContent)
            let problem = try off.problem()
            #expect(problem.errors?.map(\.field) == ["types.follow_request"])
            #expect(problem.errors?.first?.detail.contains("always reach your inbox") == true)
            let kept = try await api.call(.get, "/api/v1/notifications/preferences", token: ana)
                .decode(NotificationPreferences.self)
            #expect(kept.setting(for: .followRequest) == .immediate && kept.setting(for: .kudos) == .batched)
            // And a digest instead is taken, and a request still reaches her inbox at once
            let digest = try await api.call(
                .put, "/api/v1/notifications/preferences", token: ana, json: #"{"types":{"follow_request":"daily"}}"#)
            #expect(digest.status == .ok)
            try await api.follow(bea, "ana")
            #expect(try await Self.inbox(api, ana).map(\.text) == ["bea asked to follow you"])
        }
    }

    @Test("devices and browsers are registered, checked and removed", arguments: StorageBackend.available)
    func devices(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let token = String(repeating: "ab", count: 32)
            let added = try await api.call(
                .post, "/api/v1/notifications/devices", token: ana, body: DeviceRegistration(token: token))
            #expect(added.status == .noContent)
            let bad = try await api.call(
                .post, "/api/v1/notifications/devices", token: ana, body: DeviceRegistration(token: "not hex"))
            #expect(try bad.problem().errors?.map(\.field) == ["token"])
            let me = try await api.call(.get, "/api/v1/me", token: ana).decode(Account.self)
            #expect(try await api.storage.pushAddresses.devices(of: me.id) == [token])
            let browser = WebPushRegistration(
                endpoint: "https://push.example.net/send/abc",
                keys: .init(
                    p256dh: Data(repeating: 4, count: 65).base64URL, auth: Data(repeating: 1, count: 16).base64URL))
            #expect(
                try await api.call(.post, "/api/v1/notifications/web-push", token: ana, body: browser).status
                    == .noContent)
            let broken = WebPushRegistration(endpoint: "ftp://nope", keys: .init(p256dh: "short", auth: ""))
            let refused = try await api.call(.post, "/api/v1/notifications/web-push", token: ana, body: broken)
            #expect(try refused.problem().errors?.map(\.field) == ["endpoint", "keys.p256dh", "keys.auth"])
            // A host no push service has (schemathesis found the server taking `http://d*`, which the document
            // refuses).
            for endpoint in ["http://d*", "https://push.example.com\u{85}/x", "https:///no-host"] {
                let odd = WebPushRegistration(endpoint: endpoint, keys: browser.keys)
                let answer = try await api.call(.post, "/api/v1/notifications/web-push", token: ana, body: odd)
                #expect(try answer.problem().errors?.map(\.field) == ["endpoint"], "\(endpoint)")
            }
            #expect(
                try await api.call(.delete, "/api/v1/notifications/devices/\(token)", token: ana).status == .noContent)
            #expect(
                try await api.call(.delete, "/api/v1/notifications/devices/\(token)", token: ana).status == .notFound)
            let gone = try await api.call(
                .post, "/api/v1/notifications/web-push/unsubscribe", token: ana,
                json: #"{"endpoint":"https://push.example.net/send/abc"}"#)
            #expect(gone.status == .noContent)
            #expect(try await api.storage.pushAddresses.webPushSubscriptions(of: me.id).isEmpty)

            // A NUL byte (which PostgreSQL refuses in text, found by schemathesis) is an answer naming the field,
            // not a 500.
            let nul = try await api.call(
                .post, "/api/v1/notifications/web-push/unsubscribe", token: ana,
                json: #"{"endpoint":"https://push.example.net/\u0000"}"#)
            #expect(try nul.problem().errors?.map(\.field) == ["endpoint"])
            let device = try await api.call(.delete, "/api/v1/notifications/devices/ab%00cd", token: ana)
            #expect(try device.problem().errors?.map(\.field) == ["token"])
            let archive = try await api.call(.post, "/api/v1/notifications/groups/a%00b/archive", token: ana)
            #expect(try archive.problem().errors?.map(\.field) == ["group_key"])
        }
    }

    @Test(
        "a device is removed by its token in the body, or in the path as before; neither puts it in the log",
        arguments: StorageBackend.available)
    func deviceTokensStayOutOfTheLog(backend: StorageBackend) async throws {
        let capture = LogCapture()
        try await TestApp.run(backend, logger: capture.logger()) { api in
            // Given Ana's phone and tablet, registered for pushes
            let ana = try await api.user("ana")
            let me = try await api.call(.get, "/api/v1/me", token: ana).decode(Account.self)
            let phone = String(repeating: "ab", count: 32)
            let tablet = String(repeating: "cd", count: 32)
            for token in [phone, tablet] {
                let added = try await api.call(
                    .post, "/api/v1/notifications/devices", token: ana, body: DeviceRegistration(token: token))
                #expect(added.status == .noContent)
            }
            // When she removes the phone with its token in the body, and the tablet by the older route
            let byBody = try await api.call(
                .delete, "/api/v1/notifications/devices", token: ana, body: DeviceRegistration(token: phone))
            let byPath = try await api.call(.delete, "/api/v1/notifications/devices/\(tablet)", token: ana)
            // Then both are gone, and a second removal finds nothing
            #expect(byBody.status == .noContent && byPath.status == .noContent)
            #expect(try await api.storage.pushAddresses.devices(of: me.id).isEmpty)
            let again = try await api.call(
                .delete, "/api/v1/notifications/devices", token: ana, body: DeviceRegistration(token: phone))
            #expect(again.status == .notFound)
        }
        // And the access log has both requests, by route, without either token
        let lines = capture.all
        #expect(lines.contains { $0.contains("DELETE /api/v1/notifications/devices 204") })
        #expect(lines.contains { $0.contains("DELETE /api/v1/notifications/devices/{token} 204") })
        for line in lines {
            #expect(!line.contains("abababab") && !line.contains("cdcdcdcd"), "\(line)")
        }
    }
}

extension Data {
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
