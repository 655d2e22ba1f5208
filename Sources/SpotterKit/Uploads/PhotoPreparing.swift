import Foundation

#if canImport(ImageIO)
import ImageIO
import UniformTypeIdentifiers
#endif

/// Makes a photo ready to send before it is queued (issue 40, item 10; the Nova seed's upload flow): one
/// larger than `PhotoPreparation.maxSide` on its long side is scaled down to fit and encoded as a JPEG at
/// `PhotoPreparation.quality`, upright and without its metadata (no location leaves the phone); one within
/// it is sent as it is, so a small photo is not encoded twice. A phone then sends a few hundred kilobytes,
/// not 12 MB, and the outbox keeps no more than that.
///
/// Apple platforms get `ImageIOPhotoPreparer` by default; elsewhere the host passes one (the `spotter`
/// terminal client passes libvips', `VipsPhotoPreparer`).
public protocol PhotoPreparing: Sendable {
    func prepare(_ photo: PhotoToUpload) async throws -> PhotoToUpload
}

public enum PhotoPreparation {
    public static let maxSide = 2048
    public static let quality = 85

    /// The preparer of this platform, if it has one.
    public static var platformDefault: (any PhotoPreparing)? {
        #if canImport(ImageIO)
        ImageIOPhotoPreparer()
        #else
        nil
        #endif
    }
}

#if canImport(ImageIO)
/// ImageIO's thumbnailer: decodes at the size it needs (a 48-megapixel HEIC is never decoded whole),
/// applies the EXIF orientation, and writes a JPEG with no metadata.
public struct ImageIOPhotoPreparer: PhotoPreparing {
    public init() {}

    public func prepare(_ photo: PhotoToUpload) async throws -> PhotoToUpload {
        guard let source = CGImageSourceCreateWithData(photo.data as CFData, nil),
            let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any],
            let width = properties[kCGImagePropertyPixelWidth] as? Int,
            let height = properties[kCGImagePropertyPixelHeight] as? Int
        else { return photo }  // not an image ImageIO reads: the server says why
        guard max(width, height) > PhotoPreparation.maxSide else { return photo }
        let options: [CFString: Any] = [
            kCGImageSourceCreateThumbnailFromImageAlways: true,
            kCGImageSourceCreateThumbnailWithTransform: true,
            kCGImageSourceThumbnailMaxPixelSize: PhotoPreparation.maxSide,
        ]
        guard let image = CGImageSourceCreateThumbnailAtIndex(source, 0, options as CFDictionary) else {
            return photo
        }
        let output = NSMutableData()
        guard
            let destination = CGImageDestinationCreateWithData(
                output, UTType.jpeg.identifier as CFString, 1, nil)
        else { return photo }
        let quality = [kCGImageDestinationLossyCompressionQuality: Double(PhotoPreparation.quality) / 100]
        CGImageDestinationAddImage(destination, image, quality as CFDictionary)
        guard CGImageDestinationFinalize(destination) else { return photo }
        var prepared = photo
        prepared.data = output as Data
        prepared.contentType = "image/jpeg"
        return prepared
    }
}
#endif
