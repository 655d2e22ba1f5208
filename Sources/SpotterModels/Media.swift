import Foundation

/// What an upload is for: a post's photo or a profile's avatar. Avatars are shown wherever their person is, so
/// they follow the person, not a post.
public enum MediaPurpose: String, Codable, Sendable, CaseIterable {
    case post, avatar
}

/// Where an upload is on its way to being shown, as Mastodon's media API reports it.
public enum MediaStatus: String, Codable, Sendable, CaseIterable {
    /// Presigned; the bytes have not been confirmed yet.
    case pending
    /// Completed by the client; the server is checking and resizing it.
    case processing
    /// Its renditions exist; it may be attached.
    case ready
    /// Refused (see `reason`); its bytes are gone.
    case failed
}

/// A point of interest in a photo for cropping, in Mastodon's convention: `x` from -1 (left) to 1 (right), `y`
/// from -1 (bottom) to 1 (top), `(0, 0)` the centre.
public struct FocalPoint: Codable, Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let centre = FocalPoint(x: 0, y: 0)
}

/// `POST /api/v1/media`: asks for somewhere to upload `byteSize` bytes of `contentType`.
public struct CreateMediaRequest: Codable, Sendable, Equatable {
    public var contentType: String
    public var byteSize: Int
    public var purpose: MediaPurpose
    /// Alt text, when already known.
    public var description: String?
    public var focus: FocalPoint?

    public init(
        contentType: String, byteSize: Int, purpose: MediaPurpose, description: String? = nil,
        focus: FocalPoint? = nil
    ) {
        self.contentType = contentType
        self.byteSize = byteSize
        self.purpose = purpose
        self.description = description
        self.focus = focus
    }

    enum CodingKeys: String, CodingKey {
        case contentType = "content_type"
        case byteSize = "byte_size"
        case purpose, description, focus
    }
}

/// The answer to `POST /api/v1/media`: send the bytes with `uploadMethod` to `uploadURL`, with exactly
/// `uploadHeaders`, before `expiresAt`; then `POST /api/v1/media/{id}/complete`.
public struct MediaUpload: Codable, Sendable, Equatable {
    public var id: MediaID
    public var uploadURL: String
    public var uploadMethod: String
    public var uploadHeaders: [String: String]
    public var expiresAt: Date

    public init(id: MediaID, uploadURL: String, uploadMethod: String, uploadHeaders: [String: String], expiresAt: Date)
    {
        self.id = id
        self.uploadURL = uploadURL
        self.uploadMethod = uploadMethod
        self.uploadHeaders = uploadHeaders
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case uploadURL = "upload_url"
        case uploadMethod = "upload_method"
        case uploadHeaders = "upload_headers"
        case expiresAt = "expires_at"
    }
}

/// An upload as its owner sees it (`GET /api/v1/media/{id}`): its state, and once ready, its renditions.
public struct Media: Codable, Sendable, Equatable {
    public var id: MediaID
    public var purpose: MediaPurpose
    public var status: MediaStatus
    /// Why it failed, for a person to read.
    public var reason: String?
    /// The large rendition (longest side 1,600 px), once ready.
    public var url: String?
    /// The small rendition (longest side 400 px), once ready.
    public var previewURL: String?
    public var width: Int?
    public var height: Int?
    public var blurhash: String?
    public var description: String?
    public var focus: FocalPoint?
    /// The post it is attached to, once it is.
    public var postID: PostID?
    public var createdAt: Date

    public init(
        id: MediaID, purpose: MediaPurpose, status: MediaStatus, reason: String? = nil, url: String? = nil,
        previewURL: String? = nil, width: Int? = nil, height: Int? = nil, blurhash: String? = nil,
        description: String? = nil, focus: FocalPoint? = nil, postID: PostID? = nil, createdAt: Date
    ) {
        self.id = id
        self.purpose = purpose
        self.status = status
        self.reason = reason
        self.url = url
        self.previewURL = previewURL
        self.width = width
        self.height = height
        self.blurhash = blurhash
        self.description = description
        self.focus = focus
        self.postID = postID
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, purpose, status, reason, url, width, height, blurhash, description, focus
        case previewURL = "preview_url"
        case postID = "post_id"
        case createdAt = "created_at"
    }
}

/// `PATCH /api/v1/media/{id}`: alt text and focal point, editable until the photo's post is made. A field left
/// out stays; an empty description removes it.
public struct UpdateMediaRequest: Codable, Sendable, Equatable {
    public var description: String?
    public var focus: FocalPoint?

    public init(description: String? = nil, focus: FocalPoint? = nil) {
        self.description = description
        self.focus = focus
    }
}

/// A photo as a post carries it. URLs of a public post's photos are stable and cacheable; those of any other
/// post are signed for the viewer they were issued to and expire.
public struct MediaAttachment: Codable, Sendable, Equatable, Hashable {
    public var id: MediaID
    public var url: String
    public var previewURL: String
    public var width: Int
    public var height: Int
    public var blurhash: String
    public var description: String?
    public var focus: FocalPoint?

    public init(
        id: MediaID, url: String, previewURL: String, width: Int, height: Int, blurhash: String,
        description: String?, focus: FocalPoint?
    ) {
        self.id = id
        self.url = url
        self.previewURL = previewURL
        self.width = width
        self.height = height
        self.blurhash = blurhash
        self.description = description
        self.focus = focus
    }

    enum CodingKeys: String, CodingKey {
        case id, url, width, height, blurhash, description, focus
        case previewURL = "preview_url"
    }
}
