import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import SpotterCore

/// Where a bucket is: `path` puts it in the path (`host/bucket/key`), as most S3-compatible servers expect;
/// `virtual` in the host (`bucket.host/key`), as AWS prefers.
public enum S3Addressing: String, Sendable {
    case path, virtual
}

/// An S3-compatible bucket and the credentials to use it. The secret never appears in a description, a log
/// line or an error.
public struct S3Configuration: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    public var endpoint: URL
    public var bucket: String
    public var region: String
    public var accessKeyID: String
    public var secretAccessKey: String
    public var addressing: S3Addressing

    public init(
        endpoint: URL, bucket: String, region: String = "us-east-1", accessKeyID: String,
        secretAccessKey: String, addressing: S3Addressing = .path
    ) {
        self.endpoint = endpoint
        self.bucket = bucket
        self.region = region
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.addressing = addressing
    }

    public var description: String {
        "S3(\(endpoint.absoluteString), bucket \(bucket), region \(region), key id \(accessKeyID), \(addressing))"
    }

    public var customMirror: Mirror { Mirror(reflecting: description) }
}

/// The blob store in an S3-compatible bucket (AWS S3, SeaweedFS, MinIO, R2…), which every node of a community
/// shares: no node keeps a blob another needs.
///
/// Server requests (`put`, `get`, `info`, `delete`) carry a SigV4 `Authorization` header over their payload's
/// SHA-256; clients get presigned URLs (SigV4 query auth) and talk to the bucket directly. One `HTTPClient`
/// serves every request; as a `Service` the store shuts it down when the application stops.
public final class S3BlobStore: BlobStore, Service {
    public let configuration: S3Configuration
    private let signer: SigV4
    private let client: HTTPClient
    /// How long one request to the bucket may take, body included.
    private let timeout: TimeAmount = .seconds(120)

    /// `connectTimeout` bounds how long an unreachable bucket keeps a request waiting (AsyncHTTPClient keeps
    /// retrying a refused connection until then).
    public init(configuration: S3Configuration, connectTimeout: TimeAmount = .seconds(5)) {
        self.configuration = configuration
        signer = SigV4(
            endpoint: configuration.endpoint, region: configuration.region, addressing: configuration.addressing,
            credentials: .init(
                accessKeyID: configuration.accessKeyID, secretAccessKey: configuration.secretAccessKey))
        var settings = HTTPClient.Configuration()
        settings.timeout = .init(connect: connectTimeout)
        // A signed request is for one host: a redirect elsewhere is an error to report, not to follow.
        settings.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
    }

    /// Waits for the application to stop, then closes the HTTP client's connections.
    public func run() async throws {
        try? await gracefulShutdown()
        try await shutdown()
    }

    /// Closes the HTTP client; the store makes no request after it.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    public func put(_ data: Data, at key: BlobKey, contentType: String) async throws {
        let response = try await send(.PUT, key, body: data, headers: ["Content-Type": contentType])
        try await Self.expectSuccess(response)
    }

    public func get(_ key: BlobKey) async throws -> Blob? {
        let response = try await send(.GET, key)
        if response.status == .notFound { return nil }
        try await Self.expectSuccess(response)
        do {
            let body = try await response.body.collect(upTo: Int(Int32.max))
            return Blob(
                data: Data(buffer: body),
                contentType: response.headers.first(name: "content-type") ?? "application/octet-stream")
        } catch {
            throw BlobStoreError.unavailable("the bucket's answer broke off: \(Self.describe(error))")
        }
    }

    public func info(_ key: BlobKey) async throws -> BlobInfo? {
        let response = try await send(.HEAD, key)
        if response.status == .notFound { return nil }
        try await Self.expectSuccess(response)
        guard let size = response.headers.first(name: "content-length").flatMap({ Int($0) }) else {
            throw BlobStoreError.unavailable("the bucket answered HEAD without a Content-Length")
        }
        return BlobInfo(size: size, contentType: response.headers.first(name: "content-type"))
    }

    public func delete(_ key: BlobKey) async throws {
        let response = try await send(.DELETE, key)
        if response.status == .notFound { return }  // some servers say so; S3 answers 204 either way
        try await Self.expectSuccess(response)
    }

    public func presignedUpload(
        to key: BlobKey, contentType: String, lifetime: Duration, now: Date
    ) throws
        -> PresignedRequest
    {
        let seconds = try Self.expiry(lifetime)
        let url = signer.presignedURL(
            method: "PUT", bucket: configuration.bucket, key: key.rawValue, contentType: contentType,
            expires: seconds, date: now)
        return PresignedRequest(
            method: "PUT", url: url, headers: ["Content-Type": contentType],
            expiresAt: now.addingTimeInterval(Double(seconds)))
    }

    public func presignedDownload(of key: BlobKey, lifetime: Duration, now: Date) throws -> PresignedRequest {
        let seconds = try Self.expiry(lifetime)
        let url = signer.presignedURL(
            method: "GET", bucket: configuration.bucket, key: key.rawValue, expires: seconds, date: now)
        return PresignedRequest(
            method: "GET", url: url, headers: [:], expiresAt: now.addingTimeInterval(Double(seconds)))
    }

    /// S3 takes 1 s to 7 days (`X-Amz-Expires`).
    private static func expiry(_ lifetime: Duration) throws -> Int {
        let seconds = Int(lifetime.components.seconds)
        guard (1...604_800).contains(seconds) else {
            throw BlobStoreError.refused(status: 400, detail: "a presigned S3 link lives 1 second to 7 days")
        }
        return seconds
    }

    private func send(
        _ method: HTTPMethod, _ key: BlobKey, body: Data = Data(), headers: [String: String] = [:]
    ) async throws -> HTTPClientResponse {
        let payloadHash = SigV4.hex(SHA256.hash(data: body))
        let signed = signer.signedHeaders(
            method: method.rawValue, bucket: configuration.bucket, key: key.rawValue, headers: headers,
            payloadHash: payloadHash, date: Date())
        let (host, path) = signer.location(bucket: configuration.bucket, key: key.rawValue)
        var request = HTTPClientRequest(url: "\(configuration.endpoint.scheme ?? "https")://\(host)\(path)")
        request.method = method
        for (name, value) in signed { request.headers.replaceOrAdd(name: name, value: value) }
        if method == .PUT { request.body = .bytes(ByteBuffer(data: body)) }
        do {
            return try await client.execute(request, timeout: timeout)
        } catch {
            throw BlobStoreError.unavailable("the bucket could not be reached: \(Self.describe(error))")
        }
    }

    /// Throws `refused` with S3's error code and message (`NoSuchBucket: The specified bucket does not exist`)
    /// unless the status is 2xx.
    private static func expectSuccess(_ response: HTTPClientResponse) async throws {
        guard !(200..<300).contains(response.status.code) else { return }
        let body = (try? await response.body.collect(upTo: 64 << 10)).map { String(buffer: $0) } ?? ""
        func element(_ name: String) -> String? {
            guard let start = body.range(of: "<\(name)>"), let end = body.range(of: "</\(name)>"),
                start.upperBound <= end.lowerBound
            else { return nil }
            return String(body[start.upperBound..<end.lowerBound])
        }
        let detail = [element("Code"), element("Message")].compactMap { $0 }.joined(separator: ": ")
        throw BlobStoreError.refused(
            status: Int(response.status.code), detail: detail.isEmpty ? response.status.reasonPhrase : detail)
    }

    /// An HTTP client error in words. Its requests' headers (the signature) are not part of them.
    private static func describe(_ error: any Error) -> String {
        "\(error)"
    }
}
