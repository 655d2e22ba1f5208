import Foundation
import NIOConcurrencyHelpers
import SpotterCore
import SpotterKit
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// Posts with photos through the durable upload queue, against a real server with the local blob store: the
/// network cut at each step, and the app killed (a new queue over the same database file) before it comes back.
@Suite("Upload queue")
struct UploadQueueTests {
    static let password = "correct horse battery"

    @Test(
        "an upload interrupted at any step ends in exactly one post with its photo once the network is back",
        arguments: InterruptingNetwork.Cut.allCases)
    func interrupted(at cut: InterruptingNetwork.Cut) async throws {
        try await Self.withServer { url, _ in
            // Given Ana, signed in on a phone whose queue keeps its jobs in a file
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uploads-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("spotter.sqlite").path
            let tokens = MemoryTokenStore()
            let ana = SpotterClient(baseURL: url, tokens: tokens)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let network = InterruptingNetwork(cut: cut)
            let phone = SpotterClient(baseURL: url, tokens: tokens, transport: network, retry: .none)
            let before = try UploadQueue(path: file, client: phone)
            let jpeg = try Self.jpeg()
            try await before.enqueue(
                CreatePostRequest(kind: .note, text: "Track day"),
                photos: [PhotoToUpload(data: jpeg, contentType: "image/jpeg", description: "Lane 4 at sunset")])

            // When the network goes at that step
            let stopped = await before.drain()

            // Then the job waits for the network, and nothing is posted yet (unless the post's answer was lost)
            guard case .waiting(_, let retry) = try #require(stopped.first) else {
                Issue.record("expected the job to wait, got \(stopped)")
                return
            }
            #expect(retry.reason == .network)
            #expect(try await ana.feed(.user("ana")).items.count == (cut == .postAnswerLost ? 1 : 0))

            // When the app is killed and started again over the same file, and the network is back
            network.cut = nil
            let after = try UploadQueue(path: file, client: phone)
            let outcomes = await after.drain(ignoringBackoff: true)

            // Then exactly one post carries the photo with its alt text, and the queue is empty
            guard case .posted(_, let post) = try #require(outcomes.first) else {
                Issue.record("expected a post, got \(outcomes)")
                return
            }
            let posts = try await ana.feed(.user("ana")).items
            #expect(posts.map(\.id) == [post.id])
            #expect(posts.first?.media.map(\.description) == ["Lane 4 at sunset"])
            #expect(posts.first?.media.first?.width == 64)
            #expect(try await after.pending.isEmpty)
            if cut == .beforeComplete || cut == .beforePost || cut == .postAnswerLost {
                #expect(network.puts == 1, "a completed upload is not sent twice")
            }
        }
    }

    @Test("a link that expired while the phone was away is presigned again, and progress goes step by step to 1")
    func expiredLink() async throws {
        try await Self.withServer { url, clock in
            // Given a job presigned just before the network went
            let tokens = MemoryTokenStore()
            let ana = SpotterClient(baseURL: url, tokens: tokens)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let network = InterruptingNetwork(cut: .beforePut)
            let database = try AppDatabase(path: nil)
            let recorder = AnalyticsRecorder()
            let tracker = AnalyticsTracker(
                database: database, client: SpotterClient(baseURL: url, tokens: tokens, transport: recorder))
            let queue = UploadQueue(
                database: database,
                client: SpotterClient(baseURL: url, tokens: tokens, transport: network, retry: .none),
                analytics: tracker)
            let job = try await queue.enqueue(
                CreatePostRequest(kind: .note, text: "Hill sprints"),
                photos: [PhotoToUpload(data: try Self.jpeg(), contentType: "image/jpeg")])
            _ = await queue.drain()
            let firstLink = try #require(try await queue.pending.first?.photos.first?.upload)

            // When the server's clock passes the link's expiry (the phone's does not) and the network is back
            clock.advance(by: 3600)
            network.cut = nil
            let updates = await queue.progress()
            let outcomes = await queue.drain(ignoringBackoff: true)

            // Then the store refused the old link, the queue asked for another and posted with it
            guard case .posted(_, let post) = try #require(outcomes.first) else {
                Issue.record("expected a post, got \(outcomes)")
                return
            }
            #expect(network.puts == 2)
            #expect(post.media.count == 1)
            #expect(post.media.first?.id != firstLink.id)
            var seen: [UploadProgress] = []
            for await progress in updates {
                seen.append(progress)
                if case .posted = progress.step { break }
            }
            #expect(seen.allSatisfy { $0.jobID == job.id })
            #expect(
                seen.map(\.step) == [
                    .photo(0, .send), .photo(0, .presign), .photo(0, .send), .photo(0, .complete),
                    .photo(0, .process), .photo(0, .ready), .posting, .posted(post),
                ])
            #expect(seen.map(\.fraction) == [0.2, 0, 0.2, 0.4, 0.6, 0.8, 0.8, 1])
            #expect(seen.last?.fraction == 1)

            // And the upload was counted once, with how long it took from queued to posted
            await tracker.flush()
            let counted = recorder.events.filter { $0.name == "upload_success" }
            #expect(counted.count == 1)
            #expect(counted.first?.properties["photos"] == "1")
            #expect(counted.first?.properties["duration_ms"].flatMap(Int.init).map { $0 >= 0 } == true)
        }
    }

    @Test("a photo the server cannot read ends its job with the reason, not retried, and nothing is posted")
    func refusedPhoto() async throws {
        try await Self.withServer { url, _ in
            // Given a job whose "JPEG" is not an image
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let queue = UploadQueue(database: try AppDatabase(path: nil), client: ana)
            try await queue.enqueue(
                CreatePostRequest(kind: .note, text: "Leg day"),
                photos: [
                    PhotoToUpload(data: try Self.jpeg(), contentType: "image/jpeg"),
                    PhotoToUpload(data: Data("not a photo at all".utf8), contentType: "image/jpeg"),
                ])

            // When it runs
            let outcomes = await queue.drain()

            // Then it failed, naming the photo and the server's reason, and stays failed
            guard case .failed(_, let reason) = try #require(outcomes.first) else {
                Issue.record("expected a refusal, got \(outcomes)")
                return
            }
            #expect(reason.hasPrefix("Photo 2 was refused: "))
            #expect(try await queue.failed.first?.failure == reason)
            #expect(try await queue.pending.isEmpty)
            #expect(await queue.drain(ignoringBackoff: true).isEmpty)
            #expect(try await ana.feed(.user("ana")).items.isEmpty)
        }
    }

    @Test("a server error keeps the job waiting, not failed, and the next job still goes")
    func serverError() async throws {
        try await Self.withServer { url, _ in
            // Given two jobs, and a server whose first answer is a 503
            let tokens = MemoryTokenStore()
            try await SpotterClient(baseURL: url, tokens: tokens)
                .signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let network = CountingTransport(failFirstWith: [503])
            let client = SpotterClient(baseURL: url, tokens: tokens, transport: network, retry: .none)
            let queue = UploadQueue(database: try AppDatabase(path: nil), client: client)
            let jpeg = try Self.jpeg()
            for text in ["Squats", "Rows"] {
                try await queue.enqueue(
                    CreatePostRequest(kind: .note, text: text),
                    photos: [PhotoToUpload(data: jpeg, contentType: "image/jpeg")])
            }

            // When the queue drains
            let outcomes = await queue.drain()

            // Then the first waits for the server, and the second is posted
            guard outcomes.count == 2, case .waiting(_, let retry) = outcomes[0], case .posted = outcomes[1] else {
                Issue.record("expected a wait then a post, got \(outcomes)")
                return
            }
            #expect(retry.reason == .server)
            #expect(try await queue.failed.isEmpty)

            // When it drains again
            let later = await queue.drain(ignoringBackoff: true)

            // Then the first is posted too, once
            guard case .posted = try #require(later.first) else {
                Issue.record("expected a post, got \(later)")
                return
            }
            #expect(try await client.feed(.user("ana")).items.map(\.text) == ["Squats", "Rows"])
        }
    }

    @Test(
        "bytes that never reached the store (a PUT answered 200 on the way) are sent again when completing finds none")
    func lostBytes() async throws {
        try await Self.withServer { url, _ in
            // Given a network whose first PUT is answered 200 without reaching the store
            let tokens = MemoryTokenStore()
            try await SpotterClient(baseURL: url, tokens: tokens)
                .signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let network = SwallowingFirstPut()
            let client = SpotterClient(baseURL: url, tokens: tokens, transport: network, retry: .none)
            let queue = UploadQueue(database: try AppDatabase(path: nil), client: client)
            try await queue.enqueue(
                CreatePostRequest(kind: .note, text: "Deadlifts"),
                photos: [PhotoToUpload(data: try Self.jpeg(), contentType: "image/jpeg")])

            // When the queue drains
            let outcomes = await queue.drain()

            // Then completing found nothing, the bytes went again, and the post has its photo
            guard case .posted(_, let post) = try #require(outcomes.first) else {
                Issue.record("expected a post, got \(outcomes)")
                return
            }
            #expect(network.puts == 2)
            #expect(post.media.count == 1)
        }
    }

    @Test("photos swept while the phone was away for a day are uploaded again, and the post made once")
    func sweptWhileAway() async throws {
        try await Self.withServer(configure: { $0.media.sweepInterval = .milliseconds(100) }) { url, clock in
            // Given a job whose photo is ready when the network goes, before the post
            let tokens = MemoryTokenStore()
            try await SpotterClient(baseURL: url, tokens: tokens)
                .signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let network = InterruptingNetwork(cut: .beforePost)
            let client = SpotterClient(baseURL: url, tokens: tokens, transport: network, retry: .none)
            let queue = UploadQueue(database: try AppDatabase(path: nil), client: client)
            try await queue.enqueue(
                CreatePostRequest(kind: .note, text: "Sunday long run"),
                photos: [PhotoToUpload(data: try Self.jpeg(), contentType: "image/jpeg", description: "Mile 18")])
            _ = await queue.drain()
            let first = try #require(try await queue.pending.first?.photos.first?.upload?.id)

            // When a day passes and the server sweeps the unattached photo
            clock.advance(by: 25 * 3600)
            network.cut = nil
            let deadline = ContinuousClock.now + .seconds(30)
            while (try? await client.media(first)) != nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            await #expect(throws: SpotterClientError.self) { try await client.media(first) }

            // Then the next drain uploads it again and posts once, with the photo and its alt text
            guard case .posted(_, let post) = try #require(await queue.drain(ignoringBackoff: true).first) else {
                Issue.record("expected a post")
                return
            }
            #expect(post.media.map(\.description) == ["Mile 18"])
            #expect(post.media.first?.id != first)
            #expect(network.puts == 2)
            #expect(try await client.feed(.user("ana")).items.map(\.id) == [post.id])
        }
    }

    @Test("a photo over the size limit is refused at the presign, and its job ends with the limit named")
    func tooLarge() async throws {
        try await Self.withServer { url, _ in
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let queue = UploadQueue(database: try AppDatabase(path: nil), client: ana)
            try await queue.enqueue(
                CreatePostRequest(kind: .note, text: "Huge"),
                photos: [PhotoToUpload(data: Data(count: 17 << 20), contentType: "image/jpeg")])
            guard case .failed(_, let reason) = try #require(await queue.drain().first) else {
                Issue.record("expected a refusal")
                return
            }
            #expect(reason.hasPrefix("Photo 1 was refused: "))
            #expect(reason.contains("byte_size"))
            #expect(try await ana.feed(.user("ana")).items.isEmpty)
        }
    }

    // MARK: Helpers

    /// A real JPEG, 64×48, made with libvips: the server refuses anything that is not an image.
    static func jpeg() throws -> Data {
        try TestImages.encode(TestImages.cornered(width: 64, height: 48), as: ".jpg[Q=90]")
    }

    /// A live server on a port of its own (its presigned links carry it; a server on port 0 would not know its
    /// port) with the local blob store in a fresh folder, and a clock the test moves.
    static func withServer(
        configure: @escaping @Sendable (inout AppConfiguration) -> Void = { _ in },
        _ body: @Sendable @escaping (URL, ManualClock) async throws -> Void
    ) async throws {
        try await withServerAndStorage(configure: configure) { url, clock, _ in try await body(url, clock) }
    }

    /// Like `withServer`, and `body` may also look into the server's database (for what no API shows).
    static func withServerAndStorage(
        configure: @escaping @Sendable (inout AppConfiguration) -> Void = { _ in },
        _ body: @Sendable @escaping (URL, ManualClock, any SpotterStorage) async throws -> Void
    ) async throws {
        let port = try await LiveServer.freePort()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-kit-media-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let clock = ManualClock(Date())
        try await StorageBackend.sqlite.withIsolatedStorage { storage in
            let server = try await LiveServer.start(storage: storage, port: port, clock: clock) { configuration in
                configuration.dataDirectory = data.path
                configuration.media.pollInterval = .milliseconds(100)
                configure(&configuration)
            }
            do {
                try await body(URL(string: "http://127.0.0.1:\(port)")!, clock, storage)
            } catch {
                server.cancel()
                _ = await server.result
                throw error
            }
            server.cancel()
            _ = await server.result
        }
    }
}

/// The real network, except that the first presigned PUT is answered 200 without reaching the store.
final class SwallowingFirstPut: HTTPTransport {
    private let count = NIOLockedValueBox(0)
    var puts: Int { count.withLockedValue { $0 } }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        if request.method == "PUT" {
            let first = count.withLockedValue { count in
                count += 1
                return count == 1
            }
            if first { return HTTPResponseData(status: 200, headers: [:], body: Data()) }
        }
        return try await URLSessionTransport().send(request)
    }
}

/// The real network, cut at one step of an upload as a test says.
final class InterruptingNetwork: HTTPTransport {
    enum Cut: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// No request gets through from the presigned PUT on.
        case beforePut
        /// Half the bytes reach the store, then the connection drops.
        case duringPut
        /// The bytes are stored; the request to complete never leaves.
        case beforeComplete
        /// The photo is ready; the post is never sent.
        case beforePost
        /// The post is made but its answer is lost.
        case postAnswerLost

        var testDescription: String { rawValue }
    }

    private let state: NIOLockedValueBox<(cut: Cut?, puts: Int, cutOff: Bool)>
    private let base = URLSessionTransport()

    init(cut: Cut?) { state = NIOLockedValueBox((cut, 0, false)) }

    var cut: Cut? {
        get { state.withLockedValue { $0.cut } }
        set { state.withLockedValue { $0 = (newValue, $0.puts, false) } }
    }

    /// Presigned PUTs that reached the store.
    var puts: Int { state.withLockedValue { $0.puts } }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        let isPut = request.method == "PUT"
        let path = request.url.path
        let step: Cut? =
            switch (request.method, path) {
            case ("PUT", _): .beforePut
            case ("POST", _) where path.hasSuffix("/complete"): .beforeComplete
            case ("POST", "/api/v1/posts"): .beforePost
            default: nil
            }
        // Once the network is cut, it stays cut for every later request of the drain.
        let (cut, cutOff) = state.withLockedValue { state -> (Cut?, Bool) in
            let reached = state.cutOff || Self.reaches(step, state.cut)
            if reached { state.cutOff = true }
            return (state.cut, reached)
        }
        if cutOff, let cut {
            switch cut {
            case .duringPut where isPut:
                var half = request
                half.body = request.body.map { $0.prefix($0.count / 2) }
                _ = try await base.send(half)
                state.withLockedValue { $0.puts += 1 }
                throw URLError(.networkConnectionLost)
            case .postAnswerLost where step == .beforePost:
                _ = try await base.send(request)
                throw URLError(.networkConnectionLost)
            case .postAnswerLost where step != .beforePost:
                break
            default:
                throw URLError(.notConnectedToInternet)
            }
        }
        let response = try await base.send(request)
        if isPut { state.withLockedValue { $0.puts += 1 } }
        return response
    }

    /// Whether a request at `step` is where `cut` cuts the network.
    private static func reaches(_ step: Cut?, _ cut: Cut?) -> Bool {
        switch (step, cut) {
        case (.beforePut, .beforePut), (.beforePut, .duringPut), (.beforeComplete, .beforeComplete),
            (.beforePost, .beforePost), (.beforePost, .postAnswerLost):
            true
        default: false
        }
    }
}
