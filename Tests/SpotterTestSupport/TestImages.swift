import CVips
import Foundation
import Testing

@testable import SpotterImaging

/// Photos made at test time with libvips itself (and exiftool for their metadata), so no binary fixtures.
public enum TestImages {
    /// Packed 8-bit pixels, `bands` bytes each, row by row.
    public struct Pixels {
        public var width: Int
        public var height: Int
        public var bands: Int
        public var bytes: [UInt8]

        public init(width: Int, height: Int, bands: Int = 3, fill: [UInt8]) {
            precondition(fill.count == bands)
            self.width = width
            self.height = height
            self.bands = bands
            self.bytes = Array([[UInt8]](repeating: fill, count: width * height).joined())
        }

        public init(width: Int, height: Int, bands: Int, bytes: [UInt8]) {
            self.width = width
            self.height = height
            self.bands = bands
            self.bytes = bytes
        }

        /// Paints a rectangle.
        public mutating func fill(x: Range<Int>, y: Range<Int>, with colour: [UInt8]) {
            for row in y {
                for column in x {
                    let start = (row * width + column) * bands
                    bytes.replaceSubrange(start..<start + bands, with: colour)
                }
            }
        }

        public func pixel(x: Int, y: Int) -> [UInt8] {
            let start = (y * width + x) * bands
            return Array(bytes[start..<start + bands])
        }
    }

    /// `width`×`height` blue with a red square in the top-left corner: where the corner lands shows rotation.
    public static func cornered(width: Int, height: Int) -> Pixels {
        var pixels = Pixels(width: width, height: height, fill: [0, 0, 255])
        pixels.fill(x: 0..<width / 4, y: 0..<height / 4, with: [255, 0, 0])
        return pixels
    }

    /// The helpers call libvips one at a time. Run at once from several tests, saving by suffix
    /// (vips_image_write_to_buffer) sometimes found no saver (".png is not a known buffer format") or crashed,
    /// about one run in eight, with libvips 8.14; the processor alone, eight photos at once, never did in 30 runs.
    private static let libvips = NSLock()

    /// Encodes pixels in the format a libvips suffix names (".jpg[Q=90]", ".png", ".webp", ".heic", ".gif").
    public static func encode(_ pixels: Pixels, as suffix: String) throws -> Data {
        libvips.lock()
        defer { libvips.unlock() }
        let image = try #require(
            pixels.bytes.withUnsafeBytes { raw in
                vips_image_new_from_memory_copy(
                    raw.baseAddress, raw.count, Int32(pixels.width), Int32(pixels.height), Int32(pixels.bands),
                    VIPS_FORMAT_UCHAR)
            })
        defer { g_object_unref(image) }
        return try save(image, as: suffix)
    }

    /// Encodes 16-bit samples (`bands` each, row by row), as a camera's or an editor's 16-bit PNG holds them.
    public static func encode16(
        _ samples: [UInt16], width: Int, height: Int, bands: Int, as suffix: String
    ) throws -> Data {
        libvips.lock()
        defer { libvips.unlock() }
        let image = try #require(
            samples.withUnsafeBytes { raw in
                vips_image_new_from_memory_copy(
                    raw.baseAddress, raw.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_USHORT)
            })
        defer { g_object_unref(image) }
        return try save(image, as: suffix)
    }

    /// A black image of any size, never held in memory: a decompression bomb when saved as a PNG.
    public static func black(width: Int, height: Int, bands: Int, as suffix: String) throws -> Data {
        libvips.lock()
        defer { libvips.unlock() }
        var image: UnsafeMutablePointer<VipsImage>?
        try #require(spotter_vips_black(Int32(width), Int32(height), Int32(bands), &image) == 0)
        let black = try #require(image)
        defer { g_object_unref(black) }
        return try save(black, as: suffix)
    }

    private static func save(_ image: UnsafeMutablePointer<VipsImage>, as suffix: String) throws -> Data {
        try Vips.start()
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status = spotter_vips_save_buffer(image, suffix, &buffer, &length)
        try #require(status == 0, "libvips could not save \(suffix): \(Vips.takeError())")
        let saved = try #require(buffer)
        defer { g_free(saved) }
        return Data(bytes: saved, count: length)
    }

    /// Decodes an image (a rendition) to its pixels, as libvips sees them.
    public static func decode(_ data: Data) throws -> Pixels {
        try Vips.start()
        libvips.lock()
        defer { libvips.unlock() }
        return try data.withUnsafeBytes { raw in
            let ref = VipsImageRef(try #require(spotter_vips_header(raw.baseAddress, raw.count)))
            return Pixels(width: ref.width, height: ref.height, bands: ref.bands, bytes: try ref.bytes())
        }
    }

    /// The metadata fields libvips finds on an image: "exif-data", "xmp-data", "iptc-data", "orientation" …
    public static func vipsFields(_ data: Data) throws -> [String] {
        try Vips.start()
        libvips.lock()
        defer { libvips.unlock() }
        return try data.withUnsafeBytes { raw in
            let ref = VipsImageRef(try #require(spotter_vips_header(raw.baseAddress, raw.count)))
            return ["exif-data", "xmp-data", "iptc-data", "icc-profile-data", "orientation", "exif-ifd3-GPSLatitude"]
                .filter { spotter_vips_has_field(ref.pointer, $0) != 0 }
        }
    }

    /// Runs exiftool on a copy of `data` with `arguments` (tag assignments, in place), and returns the result.
    public static func exiftool(_ data: Data, _ arguments: [String]) throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-\(UUID()).jpg")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try run("exiftool", ["-q", "-overwrite_original"] + arguments + [file.path])
        try #require(status == 0, "exiftool failed: \(output)")
        return try Data(contentsOf: file)
    }

    /// Every tag exiftool reads, as "Group:Tag" (`exiftool -j -a -G1`).
    public static func exiftoolTags(_ data: Data) throws -> [String: String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-\(UUID()).jpg")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try run("exiftool", ["-j", "-a", "-G1", file.path])
        try #require(status == 0, "exiftool failed: \(output)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        return try #require(objects.first).mapValues { "\($0)" }
    }

    private static func run(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
