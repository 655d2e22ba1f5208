import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SpotterTestSupport
import Testing

@Suite("Idempotent writes across a crash")
struct CrashRecoveryTests {
    @Test(
        "after kill -9 every retried key replays or completes once, and each key is exactly one post",
        arguments: StorageBackend.available)
    func killNine(backend: StorageBackend) async throws {
        try await Self.withServer(backend) { server, http in
            // Given an author
            try await server.start()
            let token = try await CrashRecoveryTests.signUpAna(http)
            // Enough keys that the kill, sent after the sixth answer, lands with most of them still unanswered.
            let keys = (0..<240).map { "crash-\($0)" }

            // When the author's idempotent posts are in flight and the server is killed in their midst
            let answered = try await Self.postAll(keys, token: token, http: http, killing: server, after: 6)
            #expect(answered.count < keys.count)

            // And every key is retried as soon as the server is back
            try await server.start()
            let retried = try await withThrowingTaskGroup(of: (String, HTTP.Answer).self) { group in
                for key in keys {
                    group.addTask { (key, try await Self.post(key, token: token, http: http)) }
                }
                return try await group.reduce(into: [String: HTTP.Answer]()) { $0[$1.0] = $1.1 }
            }

            // Then each retry completes: a replay of the answer the client got, or the post made once
            for key in keys {
                let retry = try #require(retried[key])
                #expect(retry.status == 201, "\(key): \(retry.status) \(retry.text)")
                if let first = answered[key] {
                    #expect(retry.replayed, "\(key) was answered before the crash")
                    #expect(retry.object["id"] as? String == first, "\(key) replays its post")
                }
            }
            // And the author has exactly one post per key, the one its retry answered with
            let posts = try await Self.posts(of: "ana", token: token, http: http)
            #expect(posts.count == keys.count)
            for key in keys {
                let made = posts.filter { $0.text == Self.text(key) }
                #expect(made.count == 1, "\(key) made \(made.count) posts")
                #expect(made.first?.id == retried[key]?.object["id"] as? String)
            }
        }
    }

    @Test(
        "after kill -9 every post answered without a key is on disk", arguments: StorageBackend.available)
    func killNineWithoutKeys(backend: StorageBackend) async throws {
        try await Self.withServer(backend) { server, http in
            // Given an author
            try await server.start()
            let token = try await CrashRecoveryTests.signUpAna(http)
            let keys = (0..<240).map { "plain-\($0)" }

            // When her posts, sent without an Idempotency-Key, are in flight and the server is killed in their
            // midst
            let answered = try await Self.postAll(
                keys, token: token, http: http, killing: server, after: 6, keyed: false)
            #expect(answered.count >= 6)

            // Then every post she was told was made is there when the server is back (read with a new client:
            // the old one's pooled connections died with the process)
            try await server.start()
            let reader = HTTP(base: server.base)
            let posts = try await Self.posts(of: "ana", token: token, http: reader)
            try await reader.client.shutdown()
            let kept = Dictionary(posts.map { ($0.id, $0.text) }) { first, _ in first }
            for (key, id) in answered {
                #expect(kept[id] == Self.text(key), "\(key) was answered 201 as \(id) and is gone")
            }
        }
    }

    static func text(_ key: String) -> String { "Crash-test squats, \(key)" }

    /// Signs Ana up on the server process and gives her access token.
    static func signUpAna(_ http: HTTP) async throws -> String {
        let signup = try await http.send(
            .POST, "/api/v1/auth/signup",
            json: #"{"email":"ana@example.com","username":"ana","password":"correct horse battery"}"#)
        try #require(signup.status == 201)
        return try #require(signup.object["access_token"] as? String)
    }

    static func post(_ key: String, token: String, http: HTTP, keyed: Bool = true) async throws -> HTTP.Answer {
        try await http.send(
            .POST, "/api/v1/posts", token: token, json: #"{"kind":"note","text":"\#(text(key))"}"#,
            key: keyed ? key : nil)
    }

    /// Sends a post for every key at once and `kill -9`s the server once `after` of them are answered; returns
    /// the post id each answered key got. Requests cut off by the kill fail, as they would for a client.
    static func postAll(
        _ keys: [String], token: String, http: HTTP, killing server: ServerProcess, after: Int, keyed: Bool = true
    ) async throws -> [String: String] {
        let (answers, sink) = AsyncStream.makeStream(of: (String, String?).self)
        let posting = Task {
            await withTaskGroup(of: Void.self) { group in
                for key in keys {
                    group.addTask {
                        let answer = try? await post(key, token: token, http: http, keyed: keyed)
                        sink.yield((key, answer?.status == 201 ? answer?.object["id"] as? String : nil))
                    }
                }
            }
            sink.finish()
        }
        var answered: [String: String] = [:]
        for await (key, id) in answers {
            if let id { answered[key] = id }
            if answered.count == after { await server.kill() }
        }
        await server.kill()  // no-op when already killed
        await posting.value
        return answered
    }

    /// Every post of `username`, through the API's pages.
    static func posts(of username: String, token: String, http: HTTP) async throws -> [(id: String, text: String)] {
        var posts: [(id: String, text: String)] = []
        var cursor: String?
        repeat {
            let page = try await http.send(
                .GET, "/api/v1/users/\(username)/posts?limit=50" + (cursor.map { "&cursor=\($0)" } ?? ""), token: token)
            try #require(page.status == 200)
            for item in page.object["items"] as? [[String: Any]] ?? [] {
                posts.append((item["id"] as? String ?? "", item["text"] as? String ?? ""))
            }
            cursor = page.object["next_cursor"] as? String
        } while cursor != nil
        return posts
    }

    /// A server process on a fresh database of `backend` (a new SQLite folder, or a new PostgreSQL database),
    /// stopped and removed afterwards.
    static func withServer(
        _ backend: StorageBackend, _ body: (ServerProcess, HTTP) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-crash-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func run(_ environment: [String: String]) async throws {
            let server = try await ServerProcess(
                environment: environment.merging(
                    [
                        "SPOTTER_DATA_DIR": folder.appendingPathComponent("data").path,
                        "SPOTTER_NEW_ACCOUNT_POSTS_PER_HOUR": "0",
                    ]) { $1 },
                log: folder.appendingPathComponent("server.log"))
            let http = HTTP(base: server.base)
            do {
                try await body(server, http)
            } catch {
                print(server.logTail())
                await server.stop()
                try? await http.client.shutdown()
                throw error
            }
            await server.stop()
            try await http.client.shutdown()
        }
        switch backend {
        case .sqlite: try await run([:])
        case .postgres:
            try await StorageBackend.withFreshDatabase { url in try await run(["SPOTTER_DATABASE_URL": url]) }
        }
    }
}

/// JSON over HTTP to a server process, with enough connections for every request of a test at once.
struct HTTP: Sendable {
    let base: String
    let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(
            timeout: .init(connect: .seconds(30)),
            connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)))

    struct Answer: Sendable {
        var status: Int
        var replayed: Bool
        var text: String
        var object: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        }
    }

    func send(
        _ method: HTTPMethod, _ path: String, token: String? = nil, json: String? = nil, key: String? = nil
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let key { request.headers.add(name: "Idempotency-Key", value: key) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 22)
        return Answer(
            status: Int(response.status.code), replayed: response.headers.first(name: "Idempotent-Replayed") == "true",
            text: String(buffer: body))
    }
}
