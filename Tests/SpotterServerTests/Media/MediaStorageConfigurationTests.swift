import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import ServiceLifecycle
import SpotterCore
import Testing

@testable import SpotterServer

/// Choosing the blob store from the environment, and the S3 store's errors: a partial S3 setup stops the
/// server at start-up naming what is missing, and the secret shows nowhere.
@Suite("Media storage configuration")
struct MediaStorageConfigurationTests {
    static let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYsecretSECRET"
    static let complete = [
        "SPOTTER_S3_ENDPOINT": "http://127.0.0.1:8333", "SPOTTER_S3_BUCKET": "photos",
        "SPOTTER_S3_ACCESS_KEY_ID": "AKIDEXAMPLE", "SPOTTER_S3_SECRET_ACCESS_KEY": secret,
    ]

    @Test("no S3 variable means the local store under the data directory")
    func local() throws {
        let configuration = try MediaStorageConfiguration.from(environment: ["SPOTTER_DATA_DIR": "/x"])
        #expect(configuration.backend == .local)
        #expect(configuration.maxUploadSize == 16 << 20)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-data-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try makeBlobStore(
            configuration: configuration, dataDirectory: folder.path, baseURL: URL(string: "http://127.0.0.1:8080")!,
            signingKey: SymmetricKey(size: .bits256))
        let local = try #require(store as? LocalBlobStore)
        #expect(local.root.path == folder.appendingPathComponent("media").standardizedFileURL.path)
        #expect(FileManager.default.fileExists(atPath: local.root.path))
    }

    @Test("all four S3 variables make an S3 store, region us-east-1 and path addressing by default")
    func s3Defaults() throws {
        let configuration = try MediaStorageConfiguration.from(environment: Self.complete)
        let expected = S3Configuration(
            endpoint: URL(string: "http://127.0.0.1:8333")!, bucket: "photos", accessKeyID: "AKIDEXAMPLE",
            secretAccessKey: Self.secret)
        #expect(configuration.backend == .s3(expected))
        #expect(expected.region == "us-east-1")
        #expect(expected.addressing == .path)
        var environment = Self.complete
        environment["SPOTTER_S3_REGION"] = "eu-central-1"
        environment["SPOTTER_S3_ADDRESSING"] = "virtual"
        guard case .s3(let s3) = try MediaStorageConfiguration.from(environment: environment).backend else {
            Issue.record("not S3")
            return
        }
        #expect(s3.region == "eu-central-1")
        #expect(s3.addressing == .virtual)
    }

    @Test(
        "a partial S3 setup is an error naming the first missing variable",
        arguments: [
            "SPOTTER_S3_ENDPOINT", "SPOTTER_S3_BUCKET", "SPOTTER_S3_ACCESS_KEY_ID", "SPOTTER_S3_SECRET_ACCESS_KEY",
        ])
    func partial(missing: String) {
        var environment = Self.complete
        environment[missing] = nil
        #expect(throws: ConfigurationError.self) { try MediaStorageConfiguration.from(environment: environment) }
        do {
            _ = try MediaStorageConfiguration.from(environment: environment)
        } catch {
            #expect("\(error)".hasPrefix("\(missing) is not set"))
            #expect(!"\(error)".contains(Self.secret))
        }
    }

    @Test("a bad endpoint or addressing style, or a region alone, is refused")
    func invalid() {
        // A region alone is a partial setup too, not a silent local store
        #expect(
            throws: ConfigurationError(
                "SPOTTER_S3_ENDPOINT is not set: an S3 bucket needs SPOTTER_S3_ENDPOINT, SPOTTER_S3_BUCKET, SPOTTER_S3_ACCESS_KEY_ID, SPOTTER_S3_SECRET_ACCESS_KEY"
            )
        ) {
            try MediaStorageConfiguration.from(environment: ["SPOTTER_S3_REGION": "us-east-1"])
        }
        var environment = Self.complete
        environment["SPOTTER_S3_ENDPOINT"] = "127.0.0.1:8333"
        #expect(throws: ConfigurationError("SPOTTER_S3_ENDPOINT must be an http:// or https:// URL")) {
            try MediaStorageConfiguration.from(environment: environment)
        }
        environment = Self.complete
        environment["SPOTTER_S3_ADDRESSING"] = "dns"
        #expect(throws: ConfigurationError("SPOTTER_S3_ADDRESSING must be path or virtual")) {
            try MediaStorageConfiguration.from(environment: environment)
        }
    }

    @Test("the secret is in no description of the configuration")
    func secretHidden() throws {
        let configuration = try MediaStorageConfiguration.from(environment: Self.complete)
        for text in [
            "\(configuration)", String(reflecting: configuration), String(describing: configuration.backend),
        ] {
            #expect(!text.contains(Self.secret), "\(text)")
            #expect(!text.contains("wJalr"))
        }
        var dumped = ""
        dump(configuration, to: &dumped)
        #expect(!dumped.contains(Self.secret))
    }

    @Test("an unreachable bucket is unavailable, a wrong secret is refused with S3's reason and no secret")
    func s3Errors() async throws {
        // Nothing listens on port 1
        let unreachable = S3BlobStore(
            configuration: S3Configuration(
                endpoint: URL(string: "http://127.0.0.1:1")!, bucket: "b", accessKeyID: "AKID",
                secretAccessKey: Self.secret), connectTimeout: .milliseconds(500))
        await #expect {
            try await unreachable.put(Data("x".utf8), at: BlobKey("a")!, contentType: "text/plain")
        } throws: { error in
            guard case BlobStoreError.unavailable(let detail) = error else { return false }
            return !detail.contains(Self.secret)
        }
        try await unreachable.shutdown()

        // With SeaweedFS (scripts/test): the real server refuses a signature made with the wrong secret
        guard var configuration = BlobBackend.s3Configuration else { return }
        configuration.secretAccessKey = Self.secret
        let wrong = S3BlobStore(configuration: configuration)
        await #expect {
            try await wrong.put(Data("x".utf8), at: BlobKey("wrong-secret")!, contentType: "text/plain")
        } throws: { error in
            guard case BlobStoreError.refused(let status, let detail) = error else { return false }
            return status == 403 && detail.hasPrefix("SignatureDoesNotMatch") && !detail.contains(Self.secret)
        }
        try await wrong.shutdown()
    }

    @Test("as a service, the S3 store closes its HTTP client when the application stops")
    func s3Lifecycle() async throws {
        let store = S3BlobStore(
            configuration: S3Configuration(
                endpoint: URL(string: "http://127.0.0.1:1")!, bucket: "b", accessKeyID: "AKID",
                secretAccessKey: Self.secret))
        let group = ServiceGroup(services: [store], logger: Logger(label: "test"))
        // When the application is asked to stop (before or after its services start: the group remembers)
        await group.triggerGracefulShutdown()
        try await group.run()
        // Then the client is already shut down: a second shutdown is refused
        await #expect(throws: HTTPClientError.alreadyShutdown) { try await store.shutdown() }
    }
}
