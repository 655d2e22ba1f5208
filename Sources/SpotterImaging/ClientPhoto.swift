import CVips
import Foundation
import SpotterCore

/// A photo made ready on the client before it is sent (SpotterKit's `PhotoPreparing` on Linux, the
/// `spotter` terminal client's): scaled down to fit `maxSide` when it is larger, upright, flattened onto
/// white, sRGB, and encoded as a JPEG at `quality` with no metadata. `nil` when it already fits, so a small
/// photo goes as it is.
public enum ClientPhoto {
    public static func fitted(_ data: Data, maxSide: Int, quality: Int) throws -> Data? {
        try Vips.start()
        let result: Result<Data?, ImageRefusal> = data.withUnsafeBytes { raw in
            Result { () throws(ImageRefusal) in
                guard let header = spotter_vips_header(raw.baseAddress, raw.count) else {
                    throw .unreadable(Vips.takeError())
                }
                let headerRef = VipsImageRef(header)
                guard max(headerRef.width, headerRef.height) > maxSide else { return nil }
                var image = try VipsImageRef {
                    spotter_vips_thumbnail_buffer(raw.baseAddress, raw.count, Int32(maxSide), $0)
                }
                if image.hasAlpha {
                    let source = image
                    image = try VipsImageRef { spotter_vips_flatten_white(source.pointer, $0) }
                }
                let source = image
                return try VipsImageRef { spotter_vips_srgb8(source.pointer, $0) }.strippedJPEG(quality: quality)
            }
        }
        return try result.get()
    }
}
