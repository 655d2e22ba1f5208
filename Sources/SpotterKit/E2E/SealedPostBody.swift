import Foundation
import SpotterModels

/// What a sealed post says, inside its encrypted body (docs/encryption.md, "Content keys and items"):
/// `{"v":1,"text":…,"workout":…,"children":[{"id","name"}],"media":[…]}`.
///
/// The server keeps only the ciphertext; children's ids also travel in the clear as the post's `child_ids`
/// (opaque, for the child-safety rules), their names only here. Decoding refuses any `v` but 1.
///
/// ```swift
/// let body = try await groups.open(post)
/// print(body.text, body.children.map(\.name))
/// let jpeg = try await groups.photo(body.media[0], in: family.id)
/// ```
public struct SealedPostBody: Codable, Sendable, Equatable {
    public var text: String
    public var workout: WorkoutRecord?
    public var children: [ChildSummary]
    public var media: [Media]

    public init(text: String, workout: WorkoutRecord? = nil, children: [ChildSummary] = [], media: [Media] = []) {
        self.text = text
        self.workout = workout
        self.children = children
        self.media = media
    }

    /// A photo: its encrypted blob and the blob's content key, and the same for its thumbnail.
    public struct Media: Codable, Sendable, Equatable {
        public var blobID: UUID
        /// The blob's content key, base64url of its 32 bytes.
        public var key: String
        public var thumbnailBlobID: UUID?
        public var thumbnailKey: String?
        public var width: Int?
        public var height: Int?

        public init(
            blobID: UUID, key: String, thumbnailBlobID: UUID? = nil, thumbnailKey: String? = nil, width: Int? = nil,
            height: Int? = nil
        ) {
            self.blobID = blobID
            self.key = key
            self.thumbnailBlobID = thumbnailBlobID
            self.thumbnailKey = thumbnailKey
            self.width = width
            self.height = height
        }

        enum CodingKeys: String, CodingKey {
            case key, width, height
            case blobID = "blob_id"
            case thumbnailBlobID = "thumbnail_blob_id"
            case thumbnailKey = "thumbnail_key"
        }

        // Ids as lowercase text, as everywhere on the wire (Foundation writes a UUID in capitals).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            blobID = try Self.uuid(container, .blobID)
            key = try container.decode(String.self, forKey: .key)
            thumbnailBlobID =
                try container.decodeIfPresent(String.self, forKey: .thumbnailBlobID) == nil
                ? nil : try Self.uuid(container, .thumbnailBlobID)
            thumbnailKey = try container.decodeIfPresent(String.self, forKey: .thumbnailKey)
            width = try container.decodeIfPresent(Int.self, forKey: .width)
            height = try container.decodeIfPresent(Int.self, forKey: .height)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(UUIDText.format(blobID), forKey: .blobID)
            try container.encode(key, forKey: .key)
            try container.encodeIfPresent(thumbnailBlobID.map(UUIDText.format), forKey: .thumbnailBlobID)
            try container.encodeIfPresent(thumbnailKey, forKey: .thumbnailKey)
            try container.encodeIfPresent(width, forKey: .width)
            try container.encodeIfPresent(height, forKey: .height)
        }

        private static func uuid(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> UUID {
            let text = try container.decode(String.self, forKey: key)
            guard let id = UUIDText.parse(text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a UUID")
            }
            return id
        }
    }

    enum CodingKeys: String, CodingKey {
        case v, text, workout, children, media
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard try container.decode(Int.self, forKey: .v) == 1 else {
            throw DecodingError.dataCorruptedError(forKey: .v, in: container, debugDescription: "not version 1")
        }
        text = try container.decodeIfPresent(String.self, forKey: .text) ?? ""
        workout = try container.decodeIfPresent(WorkoutRecord.self, forKey: .workout)
        children = try container.decodeIfPresent([ChildSummary].self, forKey: .children) ?? []
        media = try container.decodeIfPresent([Media].self, forKey: .media) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .v)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(workout, forKey: .workout)
        try container.encode(children, forKey: .children)
        try container.encode(media, forKey: .media)
    }
}

/// What a sealed comment says, inside its encrypted body: `{"v":1,"text":…}`.
public struct SealedCommentBody: Codable, Sendable, Equatable {
    public var text: String

    public init(text: String) { self.text = text }

    enum CodingKeys: String, CodingKey { case v, text }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard try container.decode(Int.self, forKey: .v) == 1 else {
            throw DecodingError.dataCorruptedError(forKey: .v, in: container, debugDescription: "not version 1")
        }
        text = try container.decode(String.self, forKey: .text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .v)
        try container.encode(text, forKey: .text)
    }
}
