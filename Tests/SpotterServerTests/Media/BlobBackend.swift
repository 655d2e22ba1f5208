import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SpotterCore
import Testing

@testable import SpotterServer

/// The blob stores a test runs against: the local one always; S3 when `SPOTTER_TEST_S3_ENDPOINT` is set, as
/// `scripts/test` sets it (it starts SeaweedFS), so CI runs both. Like `StorageBackend` for the databases.
enum BlobBackend: String, Sendable, CaseIterable, CustomStringConvertible {
    case local
    case s3

    static var available: [BlobBackend] { s3Configuration == nil ? [.local] : [.local, .s3] }

    var description: String { rawValue }

    /// The test server's bucket and credentials, from `scripts/lib/seaweedfs.sh`'s variables.
    static var s3Configuration: S3Configuration? {
        let environment = ProcessInfo.processInfo.environment
        guard let endpoint = environment["SPOTTER_TEST_S3_ENDPOINT"].flatMap({ $0.isEmpty ? nil : URL(string: $0) })
        else { return nil }
        return S3Configuration(
            endpoint: endpoint, bucket: environment["SPOTTER_TEST_S3_BUCKET"] ?? "spotter-test",
            region: environment["SPOTTER_TEST_S3_REGION"] ?? "us-east-1",
            accessKeyID: environment["SPOTTER_TEST_S3_ACCESS_KEY_ID"] ?? "",
            secretAccessKey: environment["SPOTTER_TEST_S3_SECRET_ACCESS_KEY"] ?? "")
    }

    /// A store with nothing of this test's in it, and a key maker: keys are under a prefix of this test's own,
    /// so tests sharing the S3 bucket never see each other's blobs. The local store's presigned URLs are served
    /// by a live server on a free port for the length of `body`.
    func withStore(
        maxUploadSize: Int = 16 << 20,
        _ body: @Sendable (_ store: any BlobStore, _ key: @Sendable (String) -> BlobKey) async throws -> Void
    ) async throws {
        let prefix = "test-\(UUID().uuidString.lowercased())"
        let key: @Sendable (String) -> BlobKey = { BlobKey("\(prefix)/\($0)")! }
        switch self {
        case .local:
            try await LocalBlobServer.run(maxUploadSize: maxUploadSize) { store, _ in try await body(store, key) }
        case .s3:
            let store = S3BlobStore(configuration: Self.s3Configuration!)
            do {
                try await body(store, key)
                try await store.shutdown()
            } catch {
                try? await store.shutdown()
                throw error
            }
        }
    }
}

/// A live server with the local blob routes and the app's body-limit and problem middleware, on a free port,
/// over a fresh folder: what `spotter serve` runs when the local adapter is configured.
enum LocalBlobServer {
    static func run(
        maxUploadSize: Int = 16 << 20,
        _ body: @Sendable (_ store: LocalBlobStore, _ root: URL) async throws -> Void
    ) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-blobs-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let signingKey = SymmetricKey(size: .bits256)
        // The server's store only checks signatures: its base URL is never used.
        let served = try LocalBlobStore(
            root: root, baseURL: URL(string: "http://127.0.0.1")!, signingKey: signingKey)
        let router = Router(context: AppRequestContext.self)
        router.addMiddleware {
            ProblemMiddleware()
            BodyLimitMiddleware(maxBodySize: 1 << 20, largerBodies: [("/blobs/", maxUploadSize)])
        }
        addLocalBlobRoutes(to: router, store: served, clock: SystemClock(), maxUploadSize: maxUploadSize)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let store = try LocalBlobStore(
                root: root, baseURL: URL(string: "http://127.0.0.1:\(port)")!, signingKey: signingKey)
            try await body(store, root)
        }
    }
}

/// Sends a presigned request as a client would, with a plain HTTP client and no credentials of its own.
func send(
    _ request: PresignedRequest, url: URL? = nil, headers: [String: String]? = nil, body: Data? = nil
) async throws -> (status: Int, body: Data, headers: [String: String]) {
    var outgoing = HTTPClientRequest(url: (url ?? request.url).absoluteString)
    outgoing.method = .init(rawValue: request.method)
    for (name, value) in headers ?? request.headers { outgoing.headers.replaceOrAdd(name: name, value: value) }
    if let body { outgoing.body = .bytes(ByteBuffer(data: body)) }
    let response = try await HTTPClient.shared.execute(outgoing, timeout: .seconds(30))
    let bytes = try await response.body.collect(upTo: 64 << 20)
    var answered: [String: String] = [:]
    for header in response.headers { answered[header.name.lowercased()] = header.value }
    return (Int(response.status.code), Data(buffer: bytes), answered)
}
