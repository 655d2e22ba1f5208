import Foundation

/// Turns an uploaded photo into what Spotter serves: the port the media service asks, so the rules about
/// uploads live in SpotterCore and the decoding (libvips) stays in its adapter.
///
/// An implementation sniffs the real type from the bytes (never the declared content type), refuses anything
/// that is not a supported image or breaks `limits` before decoding its pixels, applies the EXIF orientation,
/// and writes renditions that carry no metadata at all: no EXIF, GPS, XMP, IPTC or maker notes, so a photo
/// never publishes where its athlete lives. It runs off the caller's thread (it may take a second).
public protocol ImageProcessor: Sendable {
    func process(_ data: Data, limits: ImageLimits) async throws -> ProcessedImage
}

/// What an upload may be.
public struct ImageLimits: Sendable, Equatable {
    /// Largest file accepted.
    public var maxBytes: Int
    /// Most pixels (width × height) decoded: refuses decompression bombs from their header alone.
    public var maxPixels: Int
    /// Longest side of the large rendition.
    public var largeSide: Int
    /// Longest side of the small rendition.
    public var smallSide: Int

    public init(maxBytes: Int = 16 << 20, maxPixels: Int = 40_000_000, largeSide: Int = 1600, smallSide: Int = 400) {
        self.maxBytes = maxBytes
        self.maxPixels = maxPixels
        self.largeSide = largeSide
        self.smallSide = smallSide
    }
}

/// The image types Spotter takes, by what the bytes are.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, heic

    public var contentType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .heic: "image/heic"
        }
    }
}

/// A processed photo: its renditions (JPEG, no metadata) and what placeholders and layouts need.
public struct ProcessedImage: Sendable, Equatable {
    /// What the original really was.
    public var format: ImageFormat
    /// The large rendition's size in pixels, after orientation.
    public var width: Int
    public var height: Int
    /// A BlurHash of the photo, for a placeholder while it loads.
    public var blurhash: String
    /// The large rendition: longest side at most `ImageLimits.largeSide`, never enlarged.
    public var large: Data
    /// The small rendition: longest side at most `ImageLimits.smallSide`, never enlarged.
    public var small: Data

    public init(format: ImageFormat, width: Int, height: Int, blurhash: String, large: Data, small: Data) {
        self.format = format
        self.width = width
        self.height = height
        self.blurhash = blurhash
        self.large = large
        self.small = small
    }

    /// The renditions' content type.
    public static let contentType = "image/jpeg"
}

/// Why an upload was refused: each says what a person can do about it.
public enum ImageRefusal: Error, Sendable, Equatable {
    /// The bytes are not an image of a supported type (what they look like, if known).
    case unsupportedType(String?)
    /// The file is larger than the limit.
    case tooLarge(bytes: Int, limit: Int)
    /// The image has more pixels than the limit.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The image is cut short or damaged.
    case unreadable(String)

    /// A sentence for a person.
    public var reason: String {
        switch self {
        case .unsupportedType(let seen):
            "The file is not a JPEG, PNG, WebP or HEIC image\(seen.map { " (it looks like \($0))" } ?? "")."
        case .tooLarge(_, let limit):
            "The photo is larger than \(MediaRules.sizeLimitText(ImageLimits(maxBytes: limit)))."
        case .tooManyPixels(let width, let height, let limit):
            "The image is \(width)×\(height) pixels; photos may have at most \(limit) pixels (\(limit / 1_000_000) megapixels)."
        case .unreadable(let detail):
            "The image could not be read: it may be cut short or damaged (\(detail))."
        }
    }
}
