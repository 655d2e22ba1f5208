import CVips
import Foundation
import SpotterCore

/// Pictures drawn in code, encoded by libvips: a diagonal gradient between two colours with a soft sun, so demo
/// data (`spotter seed --demo`) has real photos to process without shipping any.
public enum GeneratedPhoto {
    /// An RGB colour, 0–255 each.
    public struct Colour: Sendable, Equatable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// A `width`×`height` JPEG: `from` at the top left fading to `to` at the bottom right, a light disc at
    /// (`sunX`, `sunY`) (shares of the width and height).
    public static func jpeg(
        width: Int, height: Int, from: Colour, to: Colour, sunX: Double = 0.7, sunY: Double = 0.3, quality: Int = 85
    ) throws -> Data {
        precondition(width > 0 && height > 0)
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        let radius = Double(min(width, height)) * 0.18
        let (cx, cy) = (sunX * Double(width), sunY * Double(height))
        let (fromRGB, toRGB) = ([from.red, from.green, from.blue], [to.red, to.green, to.blue])
        bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                let dy = Double(y) - cy
                for x in 0..<width {
                    let t = (Double(x) / Double(width) + Double(y) / Double(height)) / 2
                    let dx = Double(x) - cx
                    let distance = (dx * dx + dy * dy).squareRoot()
                    let glow = max(0, min(1, (radius * 1.3 - distance) / (radius * 0.3)))
                    let start = (y * width + x) * 3
                    for band in 0..<3 {
                        let mixed = Double(fromRGB[band]) * (1 - t) + Double(toRGB[band]) * t
                        pixels[start + band] = UInt8(max(0, min(255, mixed * (1 - glow) + 250 * glow)))
                    }
                }
            }
        }
        try Vips.start()
        guard
            let image = bytes.withUnsafeBytes({ raw in
                vips_image_new_from_memory_copy(
                    raw.baseAddress, raw.count, Int32(width), Int32(height), 3, VIPS_FORMAT_UCHAR)
            })
        else { throw ImageRefusal.unreadable("the picture could not be drawn: \(Vips.takeError())") }
        defer { g_object_unref(image) }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard spotter_vips_save_buffer(image, ".jpg[Q=\(quality)]", &buffer, &length) == 0, let saved = buffer else {
            throw ImageRefusal.unreadable("the picture could not be encoded: \(Vips.takeError())")
        }
        defer { g_free(saved) }
        return Data(bytes: saved, count: length)
    }
}
