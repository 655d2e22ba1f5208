import Foundation
import SpotterCore
import SpotterModels
import Testing

@testable import SpotterServer

/// The bytes a notification becomes on its way to APNs (issue 40, item 2), as the stand-in APNs receives them.
@Suite("APNs channel")
struct APNsChannelTests {
    static let post = PostID("0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11")!
    static let bea = UserID("0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e55")!

    static func message(_ push: NotificationPush) -> OutgoingMessage {
        OutgoingMessage(
            title: "Spotter", body: "Bea posted in Hill Runners", badge: 2, collapseID: "group-posts-1",
            subject: "", text: "", html: "", push: push)
    }

    @Test("an alert groups by its inbox row, offers its category's actions and carries the route's ids")
    func alert() async throws {
        try await APNsFixture.run { fixture in
            // Given a group post's push
            let push = NotificationPush(
                type: .groupPost, groupKey: "group-posts-1", postID: Self.post, actorUsername: "bea",
                actorID: Self.bea, unread: 2)
            // When the channel sends it
            let outcome = await APNsChannel(client: fixture.client).deliver(
                Self.message(push), to: .apns(token: APNsFixture.deviceToken))
            // Then APNs got an alert in the post category, threaded by the row, that an extension may change
            #expect(outcome == .delivered)
            let request = try #require(fixture.apns.received.first)
            #expect(request.headers["apns-push-type"] == "alert")
            #expect(request.aps?["category"] as? String == "SPOTTER_POST")
            #expect(request.aps?["thread-id"] as? String == "group-posts-1")
            #expect(request.aps?["mutable-content"] as? Int == 1)
            #expect(request.aps?["badge"] as? Int == 2)
            // And beside `aps`, exactly what an app reads back into the same push
            let custom = (request.payload ?? [:]).filter { $0.key != "aps" }.compactMapValues { $0 as? String }
            #expect(custom.count == (request.payload?.count ?? 0) - 1, "every custom value is a string")
            #expect(
                custom == [
                    "spotter": "alert", "type": "group_post", "group_key": "group-posts-1",
                    "post_id": Self.post.description, "actor": "bea", "actor_id": Self.bea.description,
                    "unread": "2",
                ])
            #expect(NotificationPush(customData: custom) == push)
        }
    }

    @Test("a refresh wakes the app at priority 5 with nothing to show and the count beside it")
    func refresh() async throws {
        try await APNsFixture.run { fixture in
            // Given a silent refresh after the inbox was read elsewhere
            let push = NotificationPush(kind: .refresh, unread: 0)
            // When the channel sends it
            let outcome = await APNsChannel(client: fixture.client).deliver(
                Self.message(push), to: .apns(token: APNsFixture.deviceToken))
            // Then it is a background push: no alert, sound, badge or category (Apple drops those)
            #expect(outcome == .delivered)
            let request = try #require(fixture.apns.received.first)
            #expect(request.headers["apns-push-type"] == "background")
            #expect(request.headers["apns-priority"] == "5")
            #expect(request.aps?.keys.sorted() == ["content-available"])
            #expect(request.payload?["spotter"] as? String == "refresh")
            #expect(request.payload?["unread"] as? String == "0")
        }
    }
}
