import Crypto
import Foundation
import Logging
import SpotterCore
import SpotterImaging

/// The blob store `configuration` names: `<data-dir>/media/` with its links signed by the data folder's key, or
/// the S3 bucket.
func configuredBlobStore(_ configuration: AppConfiguration) throws -> any BlobStore {
    try makeBlobStore(
        configuration: configuration.mediaStorage, dataDirectory: configuration.dataDirectory,
        baseURL: URL(string: configuration.siteURL)!,
        signingKey: configuration.mediaStorage.backend == .local
            ? try BlobSigningKey.load(dataDirectory: configuration.dataDirectory) : SymmetricKey(size: .bits256))
}

extension MediaService {
    /// The photo service as `spotter serve` sets it up from `configuration`, over `blobs`.
    static func configured(
        _ configuration: AppConfiguration, storage: any SpotterStorage, blobs: any BlobStore, clock: any WallClock,
        logger: Logger, wake: @escaping @Sendable () -> Void = {}
    ) -> MediaService {
        MediaService(
            storage: storage, blobs: blobs, processor: configuration.media.processor ?? VipsImageProcessor(),
            links: MediaLinks(baseURL: configuration.siteURL, storage: storage, clock: clock), clock: clock,
            configuration: MediaService.Configuration(limits: configuration.media.limits), logger: logger,
            wake: wake)
    }

    /// Runs `body` with the photo service as `spotter serve` sets it up from `configuration` (its blob store,
    /// signing key and libvips), then closes the store's connections: for tools that write photos without a
    /// server running (`spotter seed --demo`).
    public static func withConfigured<Result: Sendable>(
        _ configuration: AppConfiguration, storage: any SpotterStorage, clock: any WallClock, logger: Logger,
        _ body: (MediaService) async throws -> Result
    ) async throws -> Result {
        let blobs = try configuredBlobStore(configuration)
        let media = configured(configuration, storage: storage, blobs: blobs, clock: clock, logger: logger)
        do {
            let result = try await body(media)
            try await (blobs as? S3BlobStore)?.shutdown()
            return result
        } catch {
            try? await (blobs as? S3BlobStore)?.shutdown()
            throw error
        }
    }
}
