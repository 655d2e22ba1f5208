import Foundation
import SpotterModels
import Testing

@testable import SpotterServer

/// The hub encodes a shared push once and re-heads it for each further topic: the result must be exactly the
/// frame encoded for that topic, which clients decode.
@Suite("A push re-headed for another topic")
struct RetopicedFrameTests {
    static let post = PostID.generate(at: Date(timeIntervalSince1970: 1_800_000_000))
    static let topics: [RealtimeTopic] = [
        .communityFeed, .followingFeed(.generate(at: Date())), .followingFeed(.generate(at: Date())),
        .post(post), .group(GroupID(rawValue: UUID())), .user(.generate(at: Date())),
    ]
    static let pushes: [RealtimePush] = [
        .postDeleted(post),
        .likesUpdated(LikesUpdate(id: post, likesCount: 3, likedByUserIDs: [.generate(at: Date())])),
    ]

    @Test("every topic gets the frame it would have been encoded as", arguments: pushes)
    func sameAsEncoded(push: RealtimePush) throws {
        let first = try #require(PushFrame(topic: Self.topics[0], push: push).encoded())
        let shared = try #require(RetopicedFrame(frame: first, topic: Self.topics[0]))
        for topic in Self.topics {
            let expected = try #require(PushFrame(topic: topic, push: push).encoded())
            #expect(shared.frame(for: topic) == expected)
            let decoded = try JSONCoding.decoder.decode(PushFrame.self, from: Data(expected.utf8))
            #expect(decoded.topic == topic)
        }
    }

    @Test("a frame that does not start with its topic is not shared")
    func refusesAnotherShape() {
        #expect(RetopicedFrame(frame: #"[null,null,"community:feed","x",{}]"#, topic: Self.topics[1]) == nil)
        #expect(RetopicedFrame(frame: "{}", topic: .communityFeed) == nil)
    }
}
