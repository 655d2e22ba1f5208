import Crypto
import Foundation
import SpotterModels
import Synchronization

/// The addresses photos are served at, and the rule for who may use them.
///
/// Every photo URL is Spotter's own, `<site>/media/<id>/<large|small>.jpg`, whichever blob store holds the bytes:
/// the server checks each fetch against the photo's post, so a deleted post's photos stop working at once.
/// - A post's photos have URLs signed (HMAC-SHA256 over id, size and expiry) and issued only inside a response
///   to a viewer who may see the post. The expiry is rounded up to the hour, so a viewer gets the same URL for
///   an hour and caches keep it; it lasts 5 to 6 hours. Whether the post is one everyone may see depends on
///   its author's privacy too, which a post as sent does not carry: the server decides at each fetch, and
///   serves what everyone may see with headers a CDN may cache.
/// - Avatars have plain paths (`path`), kept on the account: anyone may fetch them.
public struct MediaLinks: Sendable {
    /// The site's address, without a trailing slash.
    public let baseURL: String
    let key: MediaSigningKey
    let clock: any WallClock

    /// How long a signed URL lasts at least; it lasts up to an hour longer (the rounding).
    public static let lifetime: TimeInterval = 5 * 3600
    static let rounding: TimeInterval = 3600

    public init(baseURL: String, storage: any SpotterStorage, clock: any WallClock) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.key = MediaSigningKey(storage: storage)
        self.clock = clock
    }

    /// The path of a rendition, under the site.
    public static func path(_ id: MediaID, _ rendition: MediaRendition) -> String {
        "/media/\(id)/\(rendition.rawValue).jpg"
    }

    /// The media id in a rendition's path (`path(_:_:)`), or `nil` when `path` is not one.
    public static func mediaID(inPath path: String) -> MediaID? {
        let parts = path.split(separator: "/")
        guard parts.count == 3, parts[0] == "media",
            MediaRendition.allCases.contains(where: { "\($0.rawValue).jpg" == parts[2] })
        else { return nil }
        return MediaID(String(parts[1]))
    }

    /// The plain URL of a photo: served without a signature only while everyone may see it (an avatar, a
    /// public post of a public account).
    public func plainURL(_ id: MediaID, _ rendition: MediaRendition) -> String {
        baseURL + Self.path(id, rendition)
    }

    /// A signed URL of a rendition, valid until the returned expiry.
    public func signedURL(_ id: MediaID, _ rendition: MediaRendition, now: Date) async throws -> String {
        let expires = Int((now.timeIntervalSince1970 + Self.lifetime) / Self.rounding + 1) * Int(Self.rounding)
        let signature = try await sign(id, rendition, expires: expires)
        return plainURL(id, rendition) + "?expires=\(expires)&signature=\(signature)"
    }

    /// Whether a signed URL's query is genuine and unexpired.
    public func verify(
        _ id: MediaID, _ rendition: MediaRendition, expires: Int, signature: String, now: Date
    ) async throws -> Bool {
        guard Double(expires) > now.timeIntervalSince1970, let given = Base64URL.decode(signature) else {
            return false
        }
        let expected = HMAC<SHA256>.authenticationCode(
            for: Data(Self.message(id, rendition, expires: expires).utf8), using: try await key.key())
        return expected == given  // HMAC's code compares in constant time
    }

    /// The posts with their photos' URLs filled in for the viewer they are being sent to.
    public func linked(_ posts: [Post], now: Date? = nil) async throws -> [Post] {
        var posts = posts
        for index in posts.indices where !posts[index].media.isEmpty {
            posts[index] = try await linked(posts[index], now: now)
        }
        return posts
    }

    public func linked(_ post: Post, now: Date? = nil) async throws -> Post {
        let now = now ?? clock.now
        var post = post
        for index in post.media.indices {
            let id = post.media[index].id
            post.media[index].url = try await signedURL(id, .large, now: now)
            post.media[index].previewURL = try await signedURL(id, .small, now: now)
        }
        return post
    }

    /// An upload as its owner sees it, with signed URLs once it is ready.
    public func view(_ record: MediaRecord, now: Date) async throws -> Media {
        var media = Media(
            id: record.id, purpose: record.purpose, status: record.status, reason: record.reason,
            width: record.width, height: record.height, blurhash: record.blurhash, description: record.description,
            focus: record.focus, postID: record.postID, createdAt: record.createdAt)
        if record.status == .ready, record.discardedAt == nil {
            media.url = try await signedURL(record.id, .large, now: now)
            media.previewURL = try await signedURL(record.id, .small, now: now)
        }
        return media
    }

    private func sign(_ id: MediaID, _ rendition: MediaRendition, expires: Int) async throws -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Data(Self.message(id, rendition, expires: expires).utf8), using: try await key.key())
        return Base64URL.encode(Data(code))
    }

    private static func message(_ id: MediaID, _ rendition: MediaRendition, expires: Int) -> String {
        "spotter-media\n\(id)\n\(rendition.rawValue)\n\(expires)"
    }
}

/// The media URL key, read once from the database (where the first node to need it put it) and kept.
final class MediaSigningKey: Sendable {
    private let storage: any SpotterStorage
    private let cached = Mutex<SymmetricKey?>(nil)

    init(storage: any SpotterStorage) { self.storage = storage }

    func key() async throws -> SymmetricKey {
        if let key = cached.withLock({ $0 }) { return key }
        let candidate = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let key = SymmetricKey(data: try await storage.media.signingKey(candidate: candidate))
        cached.withLock { $0 = key }
        return key
    }
}
