import Foundation

/// The blob port: where uploaded bytes and their renditions live. One adapter keeps them in files under the
/// data directory and serves them itself; the other keeps them in an S3-compatible bucket that several nodes
/// share. Both pass one contract suite, so nothing above knows which one runs.
///
/// Clients never send bytes through a Spotter request handler they don't need to: they get a presigned upload
/// and send the bytes straight to the store, then tell Spotter they are done. A presigned request is a
/// capability: whoever holds it may do exactly that one thing to exactly that key until it expires.
///
/// Every method is safe to call concurrently, from several nodes at once on a shared bucket. A key is written
/// whole or not at all: a reader never sees half an object.
public protocol BlobStore: Sendable {
    /// Stores `data` at `key`, replacing what was there.
    func put(_ data: Data, at key: BlobKey, contentType: String) async throws
    /// The object at `key`, or `nil` when there is none.
    func get(_ key: BlobKey) async throws -> Blob?
    /// Removes the object at `key`; removing what isn't there is not an error.
    func delete(_ key: BlobKey) async throws
    /// The object's size and type without its bytes, or `nil` when there is none.
    func info(_ key: BlobKey) async throws -> BlobInfo?
    /// A request a client can make, without credentials of its own, to upload one object of `contentType` to
    /// `key` until `now + lifetime`. The store refuses it once expired, or with any part changed.
    func presignedUpload(
        to key: BlobKey, contentType: String, lifetime: Duration, now: Date
    ) throws
        -> PresignedRequest
    /// A URL anyone holding it can GET the object at `key` from until `now + lifetime`.
    func presignedDownload(of key: BlobKey, lifetime: Duration, now: Date) throws -> PresignedRequest
}

/// Where a blob lives: a relative path of letters, digits and `-_.`, segments joined by `/`, such as
/// `photos/0193…/original`. Keys are made by Spotter, never taken from a client, and are safe as file paths
/// and URL paths alike.
public struct BlobKey: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// `nil` for anything but 1–512 characters of `[A-Za-z0-9._-]` segments joined by single `/`, with no `.`
    /// or `..` segment.
    public init?(_ rawValue: String) {
        let segments = rawValue.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...512).contains(rawValue.utf8.count),
            segments.allSatisfy({ segment in
                !segment.isEmpty && segment != "." && segment != ".."
                    && segment.utf8.allSatisfy { byte in
                        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                            || byte == 0x2D || byte == 0x2E || byte == 0x5F
                    }
            })
        else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

/// A stored object with its bytes.
public struct Blob: Sendable, Equatable {
    public var data: Data
    public var contentType: String

    public init(data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }
}

/// A stored object's size and type.
public struct BlobInfo: Sendable, Equatable {
    public var size: Int
    public var contentType: String?

    public init(size: Int, contentType: String?) {
        self.size = size
        self.contentType = contentType
    }
}

/// One HTTP request, signed: the method, the URL and the headers to send with exactly these values.
public struct PresignedRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var expiresAt: Date

    public init(method: String, url: URL, headers: [String: String], expiresAt: Date) {
        self.method = method
        self.url = url
        self.headers = headers
        self.expiresAt = expiresAt
    }
}

/// Why a blob store could not do what it was asked.
public enum BlobStoreError: Error, Sendable, Equatable {
    /// The store answered, but not with success: its status and what it said.
    case refused(status: Int, detail: String)
    /// The store could not be reached or the transfer broke off.
    case unavailable(String)
}
