import CVips
import Foundation
import SpotterCore

/// libvips for the process: started once, its operation cache off (each photo is seen once, so a cache only
/// holds memory), and its errors read back as text.
enum Vips {
    /// Starts libvips the first time it is asked for; Swift runs a static's initialiser once, thread-safely.
    static func start() throws(ImageRefusal) {
        guard started else { throw .unreadable("the image library could not start") }
    }

    private static let started: Bool = spotter_vips_start() == 0

    /// The text libvips left for the last failure on any thread, then cleared (one line, no paths of ours).
    static func takeError() -> String {
        guard let buffer = vips_error_buffer_copy() else { return "unknown error" }
        defer { g_free(buffer) }
        let text = String(cString: buffer).split(whereSeparator: \.isNewline).first.map(String.init)
        return text ?? "unknown error"
    }
}

/// One reference to a libvips image, released when the Swift value goes.
final class VipsImageRef {
    let pointer: UnsafeMutablePointer<VipsImage>

    init(_ pointer: UnsafeMutablePointer<VipsImage>) { self.pointer = pointer }

    /// Takes the image an operation wrote to `out`, or throws what libvips said when it failed.
    convenience init(
        _ operation: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32
    ) throws(ImageRefusal) {
        var out: UnsafeMutablePointer<VipsImage>?
        let status = operation(&out)
        guard status == 0, let out else {
            if let out { g_object_unref(out) }
            throw .unreadable(Vips.takeError())
        }
        self.init(out)
    }

    deinit { g_object_unref(pointer) }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }
    var bands: Int { Int(vips_image_get_bands(pointer)) }
    var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }

    /// The pixels, decoded into memory: where a damaged file fails, if it does.
    func inMemory() throws(ImageRefusal) -> VipsImageRef {
        guard let copy = vips_image_copy_memory(pointer) else { throw .unreadable(Vips.takeError()) }
        return VipsImageRef(copy)
    }

    /// The pixels as packed bytes (8-bit images), row by row.
    func bytes() throws(ImageRefusal) -> [UInt8] {
        var size = 0
        guard let memory = vips_image_write_to_memory(pointer, &size) else { throw .unreadable(Vips.takeError()) }
        defer { g_free(memory) }
        return [UInt8](UnsafeRawBufferPointer(start: memory, count: size))
    }

    /// A JPEG with no metadata at all.
    func strippedJPEG(quality: Int) throws(ImageRefusal) -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard spotter_vips_jpeg_stripped(pointer, Int32(quality), &buffer, &length) == 0, let buffer else {
            throw .unreadable(Vips.takeError())
        }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}
