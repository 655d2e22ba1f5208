import Crypto
import Foundation
import SpotterCore

/// Where uploaded photos live: files under the data directory (the default, nothing to install), or an
/// S3-compatible bucket that several nodes share.
public struct MediaStorageConfiguration: Sendable, Equatable {
    public enum Backend: Sendable, Equatable {
        /// `<data-dir>/media/`, served by this server at `/blobs/…` through signed links.
        case local
        case s3(S3Configuration)
    }

    public var backend: Backend = .local
    /// The largest upload a presigned link accepts on the local store (S3 cannot bound a presigned PUT:
    /// completing an upload checks the stored size).
    public var maxUploadSize = 16 << 20

    public init(backend: Backend = .local) {
        self.backend = backend
    }

    /// The S3 variables that configure a bucket; none of them set means the local store.
    public static let s3Variables = [
        "SPOTTER_S3_ENDPOINT", "SPOTTER_S3_BUCKET", "SPOTTER_S3_ACCESS_KEY_ID", "SPOTTER_S3_SECRET_ACCESS_KEY",
    ]

    /// Reads `SPOTTER_S3_ENDPOINT`, `_BUCKET`, `_REGION` (default `us-east-1`), `_ACCESS_KEY_ID`,
    /// `_SECRET_ACCESS_KEY` and `_ADDRESSING` (`path`, the default, or `virtual`). None set: the local store.
    /// Some but not all: an error naming the first missing one, so a typo is caught at start-up, not at the
    /// first upload. Error messages never hold the secret.
    public static func from(environment: [String: String]) throws -> MediaStorageConfiguration {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let given = s3Variables.filter { value($0) != nil }
        let optional = ["SPOTTER_S3_REGION", "SPOTTER_S3_ADDRESSING"].filter { value($0) != nil }
        guard !given.isEmpty || !optional.isEmpty else { return MediaStorageConfiguration() }
        if let missing = s3Variables.first(where: { value($0) == nil }) {
            throw ConfigurationError("\(missing) is not set: an S3 bucket needs \(s3Variables.joined(separator: ", "))")
        }
        guard let endpoint = URL(string: value("SPOTTER_S3_ENDPOINT")!), let scheme = endpoint.scheme,
            ["http", "https"].contains(scheme), endpoint.host?.isEmpty == false
        else { throw ConfigurationError("SPOTTER_S3_ENDPOINT must be an http:// or https:// URL") }
        let addressing = value("SPOTTER_S3_ADDRESSING") ?? "path"
        guard let style = S3Addressing(rawValue: addressing) else {
            throw ConfigurationError("SPOTTER_S3_ADDRESSING must be path or virtual")
        }
        return MediaStorageConfiguration(
            backend: .s3(
                S3Configuration(
                    endpoint: endpoint, bucket: value("SPOTTER_S3_BUCKET")!,
                    region: value("SPOTTER_S3_REGION") ?? "us-east-1",
                    accessKeyID: value("SPOTTER_S3_ACCESS_KEY_ID")!,
                    secretAccessKey: value("SPOTTER_S3_SECRET_ACCESS_KEY")!, addressing: style)))
    }

    /// The paths whose bodies may be larger than the API's (`BodyLimitMiddleware`): the local store's uploads.
    var largerBodies: [(pathPrefix: String, maxBodySize: Int)] {
        backend == .local ? [("/blobs/", maxUploadSize)] : []
    }
}

public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The configured blob store: `LocalBlobStore` under `<dataDirectory>/media/`, its links starting with
/// `baseURL` and signed with `signingKey`; or `S3BlobStore`, which is a `Service` (add it to the application,
/// so its HTTP client is shut down when the app stops).
public func makeBlobStore(
    configuration: MediaStorageConfiguration, dataDirectory: String, baseURL: URL, signingKey: SymmetricKey
) throws -> any BlobStore {
    switch configuration.backend {
    case .local:
        return try LocalBlobStore(
            root: URL(fileURLWithPath: dataDirectory).appendingPathComponent("media"), baseURL: baseURL,
            signingKey: signingKey)
    case .s3(let s3):
        return S3BlobStore(configuration: s3)
    }
}
