import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SpotterCore
import SpotterKit
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// RealtimeClient against a real server that goes away and comes back on the same port.
@Suite("RealtimeClient")
struct RealtimeClientTests {
    @Test("live posts arrive once each; after the server restarts, the gap is filled")
    func reconnectFillsTheGap() async throws {
        let port = try await LiveServer.freePort()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        try await StorageBackend.sqlite.withIsolatedStorage { storage in
            var server = try await LiveServer.start(storage: storage, port: port)
            let anaTokens = MemoryTokenStore()
            let ana = SpotterClient(baseURL: url, tokens: anaTokens)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            let beaTokens = MemoryTokenStore()
            let bea = SpotterClient(baseURL: url, tokens: beaTokens)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: "correct horse battery")
            // Reconnect after a second, so a post can be made while Bea is away.
            let realtime = RealtimeClient(baseURL: url, schedule: RealtimeSchedule(reconnect: [.seconds(1)])) {
                guard let tokens = await beaTokens.load() else { throw SpotterClientError.signedOut }
                return tokens.accessToken
            }
            let received = EventLog(realtime.events)
            await realtime.join(.communityFeed)
            try await received.wait { $0 == .connection(true) }
            try await Task.sleep(for: .milliseconds(200))  // the join's reply

            let first = try await ana.createPost(CreatePostRequest(kind: .note, text: "Before #run"))
            try await received.wait { $0.postID == first.id }

            server.cancel()
            _ = await server.result
            try await received.wait { $0 == .connection(false) }
            // Ana posts through the same database on another port, so Bea's client cannot come back before the
            // post is made however slow the machine is: a fixed reconnect delay once lost that race under load.
            let otherPort = try await LiveServer.freePort()
            let elsewhere = try await LiveServer.start(storage: storage, port: otherPort)
            let anaElsewhere = SpotterClient(baseURL: URL(string: "http://127.0.0.1:\(otherPort)")!, tokens: anaTokens)
            let missed = try await anaElsewhere.createPost(CreatePostRequest(kind: .note, text: "While away #run"))
            elsewhere.cancel()
            _ = await elsewhere.result
            server = try await LiveServer.start(storage: storage, port: port)
            try await received.wait(timeout: .seconds(10)) { $0.postID == missed.id }
            let after = try await ana.createPost(CreatePostRequest(kind: .note, text: "After #run"))
            try await received.wait { $0.postID == after.id }
            #expect(received.postIDs == [first.id, missed.id, after.id])
            await realtime.signOut()
            server.cancel()
            _ = await server.result
        }
    }
}

/// Collects a client's events as they come, for tests to wait on.
final class EventLog: Sendable {
    private let events = NIOLockedValueBox<[RealtimeEvent]>([])
    private let reader: Task<Void, Never>

    init(_ stream: AsyncStream<RealtimeEvent>) {
        let events = self.events
        reader = Task { for await event in stream { events.withLockedValue { $0.append(event) } } }
    }

    deinit { reader.cancel() }

    var postIDs: [PostID] { events.withLockedValue { $0.compactMap(\.postID) } }

    var all: [RealtimeEvent] { events.withLockedValue { $0 } }

    struct Timeout: Error {}

    func wait(timeout: Duration = .seconds(5), for predicate: @Sendable (RealtimeEvent) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if events.withLockedValue({ $0.contains(where: predicate) }) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Timeout()
    }
}

extension RealtimeEvent {
    var postID: PostID? {
        if case .newPost(let post, _) = self { return post.id }
        return nil
    }
}
