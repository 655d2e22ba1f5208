import SpotterModels

/// One encoded push, re-headed for other topics. A push frame is `[null,null,"<topic>",<event and payload>]`:
/// everything after the topic is the same for every socket that shares the post's view, so it is encoded once
/// and each further topic costs a string concatenation. A coach's post reaches each follower on their own
/// `feed:<id>`, 10,000 topics for 10,000 sockets: encoding the post again for each was most of that fan-out.
struct RetopicedFrame {
    /// The frame after its topic: `,"<event>",<payload>]`.
    private let tail: Substring

    /// The part of `frame` after `topic`'s header, or `nil` when the frame does not start as expected (then
    /// each topic is encoded on its own, as before).
    init?(frame: String, topic: RealtimeTopic) {
        guard let header = Self.header(topic), frame.hasPrefix(header) else { return nil }
        tail = frame.dropFirst(header.count)
    }

    /// The same push on `topic`, or `nil` when the topic's name would need escaping in JSON (no topic does).
    func frame(for topic: RealtimeTopic) -> String? {
        Self.header(topic).map { $0 + tail }
    }

    /// `[null,null,"<topic>"`, as `PushFrame` encodes it, for names that JSON writes as they are.
    private static func header(_ topic: RealtimeTopic) -> String? {
        let name = topic.description
        guard name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0 != "\"" && $0 != "\\" && $0.isASCII })
        else { return nil }
        return #"[null,null,""# + name + #"""#
    }
}
