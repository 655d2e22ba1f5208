import Crypto
import Foundation
import NIOPosix
import SpotterCore

/// The blob store on local disk: one file per blob under `root` (the server's `<data-dir>/media/`), served by
/// Spotter itself at `/blobs/<key>` through URLs signed with an HMAC and an expiry, so the presigned flow of
/// the S3 adapter works the same with nothing to install.
///
/// Each file holds the blob's content type, a newline, then its bytes. Type and bytes travel together: one
/// write to a temporary file beside the blob, `fsync`, one `rename`, so a reader sees the old blob or the new
/// one whole, never a mix. (A sidecar file would take two renames, and extended attributes are not on every
/// filesystem: tmpfs before Linux 6.6 has no `user.*` attributes.)
///
/// Keys are paths, so one key cannot be both a blob and a folder of others (`media/1` beside `media/1/small`),
/// as it can in a bucket: such a put is refused (409). Spotter's keys (`media/<id>/<rendition>`) never nest.
///
/// A presigned URL is `<baseURL>/blobs/<key>?expires=<unix seconds>&signature=<hex>`, where the signature is
/// HMAC-SHA256 under `signingKey` of the method, the key, the expiry and (for uploads) the content type, so
/// changing any of them, or sending another `Content-Type`, makes it worthless. `LocalBlobController` checks
/// them. Several nodes share such URLs only if they share the key and the folder.
public struct LocalBlobStore: BlobStore {
    public let root: URL
    /// Where clients reach this server (`https://spotter.example`): presigned URLs start with it.
    public let baseURL: URL
    private let signingKey: SymmetricKey

    /// Creates `root` if it is missing.
    public init(root: URL, baseURL: URL, signingKey: SymmetricKey) throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        self.root = root.standardizedFileURL
        self.baseURL = baseURL
        self.signingKey = signingKey
    }

    public func put(_ data: Data, at key: BlobKey, contentType: String) async throws {
        let file = try await BlobFile.create(for: key, in: root, contentType: contentType)
        do {
            try await file.append(data)
            try await file.commit()
        } catch {
            await file.abandon()
            throw error
        }
    }

    public func get(_ key: BlobKey) async throws -> Blob? {
        let path = self.path(of: key)
        return try await NIOThreadPool.singleton.runIfActive {
            guard let contents = try BlobFile.read(path, headerOnly: false) else { return nil }
            return Blob(data: contents.data, contentType: contents.contentType)
        }
    }

    public func info(_ key: BlobKey) async throws -> BlobInfo? {
        let path = self.path(of: key)
        return try await NIOThreadPool.singleton.runIfActive {
            guard let contents = try BlobFile.read(path, headerOnly: true) else { return nil }
            return BlobInfo(size: contents.size, contentType: contents.contentType)
        }
    }

    public func delete(_ key: BlobKey) async throws {
        let path = self.path(of: key)
        let root = self.root.path
        try await NIOThreadPool.singleton.runIfActive {
            // ENOENT, ENOTDIR, EISDIR: no blob there (nothing, or only a prefix of other blobs' keys).
            guard unlink(path) == 0 || [ENOENT, ENOTDIR, EISDIR].contains(errno) else {
                throw BlobStoreError.unavailable("could not remove a blob (errno \(errno))")
            }
            // Empty folders left behind go too (a media id's folder once its renditions are gone); a folder a
            // concurrent put still needs is not empty, or is made again by it.
            var folder = (path as NSString).deletingLastPathComponent
            while folder.count > root.count, folder.hasPrefix(root), rmdir(folder) == 0 {
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
    }

    public func presignedUpload(
        to key: BlobKey, contentType: String, lifetime: Duration, now: Date
    ) throws
        -> PresignedRequest
    {
        try presign(method: "PUT", key: key, contentType: contentType, lifetime: lifetime, now: now)
    }

    public func presignedDownload(of key: BlobKey, lifetime: Duration, now: Date) throws -> PresignedRequest {
        try presign(method: "GET", key: key, contentType: nil, lifetime: lifetime, now: now)
    }

    private func presign(
        method: String, key: BlobKey, contentType: String?, lifetime: Duration, now: Date
    ) throws
        -> PresignedRequest
    {
        if let contentType { try BlobFile.check(contentType: contentType) }
        let expires = Int((now.timeIntervalSince1970 + Double(lifetime.components.seconds)).rounded(.down))
        let signature = self.signature(method: method, key: key, expires: expires, contentType: contentType)
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: "\(base)/blobs/\(key.rawValue)?expires=\(expires)&signature=\(signature.hex)")
        else { throw BlobStoreError.refused(status: 400, detail: "the base URL cannot carry a blob's path") }
        return PresignedRequest(
            method: method, url: url, headers: contentType.map { ["Content-Type": $0] } ?? [:],
            expiresAt: Date(timeIntervalSince1970: Double(expires)))
    }

    /// Whether `signature` (hex) is the one this store made for these values. Compared in constant time.
    func isValid(signature: String, method: String, key: BlobKey, expires: Int, contentType: String?) -> Bool {
        guard let given = Data(hex: signature) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(
            given, authenticating: Self.message(method: method, key: key, expires: expires, contentType: contentType),
            using: signingKey)
    }

    private func signature(method: String, key: BlobKey, expires: Int, contentType: String?) -> Data {
        Data(
            HMAC<SHA256>.authenticationCode(
                for: Self.message(method: method, key: key, expires: expires, contentType: contentType),
                using: signingKey))
    }

    /// What is signed: one value a line, so no two different requests sign the same text.
    private static func message(method: String, key: BlobKey, expires: Int, contentType: String?) -> Data {
        Data("spotter-blob-v1\n\(method)\n\(key.rawValue)\n\(expires)\n\(contentType ?? "")".utf8)
    }

    func path(of key: BlobKey) -> String {
        root.appendingPathComponent(key.rawValue).path
    }

    /// Starts writing the blob at `key`: the controller streams an upload's body into it.
    func create(_ key: BlobKey, contentType: String) async throws -> BlobFile {
        try await BlobFile.create(for: key, in: root, contentType: contentType)
    }
}

extension Data {
    /// Bytes from lowercase or uppercase hex; `nil` for anything else.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.init(bytes)
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    var hex: String { Hex.encode(self) }
}
