import Foundation
import SpotterModels
import Testing

/// Pushes as the server has sent them since the socket's first version: each literal frame reads back into
/// its typed case, and writing the case gives the same bytes (sorted keys, `WireJSON`).
@Suite("Realtime pushes")
struct RealtimePushTests {
    static let post = "01a2128f-70aa-7b3c-9d3e-1234567890ab"
    static let user = "01a204c5-116d-7609-9381-2298ea7dea92"

    static let frames: [(String, RealtimePush)] = [
        (
            #"[null,null,"post:\#(post)","post_deleted",{"id":"\#(post)"}]"#,
            .postDeleted(PostID(post)!)
        ),
        (
            #"[null,null,"post:\#(post)","post_likes_updated",{"id":"\#(post)","liked_by_user_ids":["\#(user)"],"likes_count":3}]"#,
            .likesUpdated(LikesUpdate(id: PostID(post)!, likesCount: 3, likedByUserIDs: [UserID(user)!]))
        ),
        (
            #"[null,null,"post:\#(post)","post_comments_updated",{"comments_count":2,"id":"\#(post)"}]"#,
            .commentsUpdated(CommentsUpdate(id: PostID(post)!, commentsCount: 2))
        ),
        (
            #"[null,null,"post:\#(post)","unread_count",{"unread":5,"unseen":1}]"#,
            .unreadCount(NotificationCounts(unread: 5, unseen: 1))
        ),
        (
            #"[null,null,"post:\#(post)","presence_diff",{"joins":{"\#(user)":{"metas":[{"online_at":1795376353,"phx_ref":"a1","username":"ana"}]}},"leaves":{}}]"#,
            .presenceDiff(
                PresenceDiff(
                    joins: [
                        user: PresenceEntry(metas: [
                            PresenceMeta(phxRef: "a1", onlineAt: 1_795_376_353, username: "ana")
                        ])
                    ],
                    leaves: [:]))
        ),
    ]

    @Test("literal frames read back into their cases, and the cases write the same bytes")
    func literalFrames() throws {
        for (text, push) in Self.frames {
            let frame = try WireJSON.decoder().decode(PushFrame.self, from: Data(text.utf8))
            #expect(frame.push == push)
            #expect(frame.topic == .post(PostID(Self.post)!))
            #expect(String(decoding: try WireJSON.encoder().encode(frame), as: UTF8.self) == text)
        }
    }

    @Test("an event this version does not know, or a topic that is none, is refused, not guessed")
    func unknown() {
        #expect(throws: (any Error).self) {
            try WireJSON.decoder().decode(
                PushFrame.self, from: Data(#"[null,null,"community:feed","post_shared",{"id":"x"}]"#.utf8))
        }
        #expect(throws: (any Error).self) {
            try WireJSON.decoder().decode(
                PushFrame.self, from: Data(#"[null,null,"rooms:lobby","post_deleted",{"id":"\#(Self.post)"}]"#.utf8))
        }
    }
}
