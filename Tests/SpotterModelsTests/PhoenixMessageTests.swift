import Foundation
import SpotterModels
import Testing

@Suite("Phoenix channel frames")
struct PhoenixMessageTests {
    @Test("a join frame as phoenix.js sends it decodes, and a reply echoes its refs")
    func joinAndReply() throws {
        let frame = #"["1","1","community:feed","phx_join",{"since":"abc"}]"#
        let message = try JSONDecoder().decode(PhoenixMessage.self, from: Data(frame.utf8))
        #expect(message.joinRef == "1" && message.ref == "1")
        #expect(message.topic == "community:feed")
        #expect(message.event == PhoenixMessage.Event.join)
        #expect(message.payload["since"]?.stringValue == "abc")
        let reply = try JSONEncoder().encode(message.reply(ok: true))
        let decoded = try JSONDecoder().decode(PhoenixMessage.self, from: reply)
        #expect(decoded.event == "phx_reply")
        #expect(decoded.payload["status"] == .string("ok"))
        #expect(decoded.joinRef == "1" && decoded.ref == "1")
    }

    @Test("broadcasts and heartbeats carry null refs where the protocol has them")
    func nullRefs() throws {
        let heartbeat = try JSONDecoder().decode(
            PhoenixMessage.self, from: Data(#"[null,"5","phoenix","heartbeat",{}]"#.utf8))
        #expect(heartbeat.joinRef == nil && heartbeat.ref == "5")
        let broadcast = PhoenixMessage.broadcast(
            topic: "post:x", event: "post_deleted", payload: .object(["id": .string("x")]))
        let text = String(decoding: try JSONEncoder().encode(broadcast), as: UTF8.self)
        #expect(text.hasPrefix(#"[null,null,"post:x","post_deleted","#))
    }

    @Test(
        "frames of the wrong shape are refused",
        arguments: [
            #"["1","1","t","e"]"#, #"["1","1","t","e",{},6]"#, #"{"topic":"t"}"#, #"[1,"1","t","e",{}]"#, "[]",
        ])
    func malformed(frame: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PhoenixMessage.self, from: Data(frame.utf8)) }
    }

    @Test("topics parse to what they name, and nothing else")
    func topics() {
        let user = UserID.generate()
        let post = PostID.generate()
        #expect(RealtimeTopic("community:feed") == .communityFeed)
        #expect(RealtimeTopic("feed:\(user)") == .followingFeed(user))
        #expect(RealtimeTopic("user:\(user)") == .user(user))
        #expect(RealtimeTopic("post:\(post)") == .post(post))
        #expect(RealtimeTopic("post:\(post)")?.description == "post:\(post)")
        for bad in ["community:other", "feed:nope", "user:", "rooms:lobby", "phoenix", ""] {
            #expect(RealtimeTopic(bad) == nil, "\(bad)")
        }
    }

    @Test("any JSON value round-trips")
    func jsonValues() throws {
        let text = #"{"a":[1,2.5,"x",true,null,{"b":{}}]}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        #expect(value == again)
        #expect(value["a"] != nil)
    }
}
