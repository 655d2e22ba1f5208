import CVips
import Dispatch
import Foundation
import SpotterCore

/// The image processor Spotter runs: libvips, which decodes a 12-megapixel JPEG shrunk on load, streams it in
/// small tiles and so needs a fraction of the memory and time of decoding it whole.
///
/// Work runs on a Dispatch queue of its own, never on Swift's cooperative pool, and at most `concurrency`
/// photos are processed at once (libvips parallelises each photo itself), so memory stays bounded however
/// many uploads arrive together.
///
/// ```swift
/// let processor = VipsImageProcessor()
/// let image = try await processor.process(upload, limits: ImageLimits())
/// ```
public struct VipsImageProcessor: ImageProcessor {
    /// JPEG quality of the renditions.
    public var quality: Int
    private let queue = DispatchQueue(label: "spotter.imaging", qos: .userInitiated, attributes: .concurrent)
    private let gate: Gate

    public init(concurrency: Int = ProcessInfo.processInfo.activeProcessorCount, quality: Int = 82) {
        self.quality = quality
        self.gate = Gate(max(1, concurrency))
    }

    public func process(_ data: Data, limits: ImageLimits) async throws -> ProcessedImage {
        // Cheap refusals first, on the caller's task: no thread hop for a file that is too big or not an image.
        guard data.count <= limits.maxBytes else {
            throw ImageRefusal.tooLarge(bytes: data.count, limit: limits.maxBytes)
        }
        let format = try ImageSniffer.format(of: data)
        try Vips.start()
        let quality = quality
        // Photos beyond `concurrency` wait here, suspended, rather than each holding a Dispatch thread.
        await gate.enter()
        let result = await withCheckedContinuation { continuation in
            queue.async {
                defer {
                    // Frees libvips' buffers for this thread, which Dispatch may retire.
                    vips_thread_shutdown()
                }
                continuation.resume(
                    returning: Result { () throws(ImageRefusal) in
                        try Self.render(data, format: format, limits: limits, quality: quality)
                    })
            }
        }
        await gate.leave()
        return try result.get()
    }

    /// Header check, then large rendition, small rendition and BlurHash, synchronously.
    static func render(
        _ data: Data, format: ImageFormat, limits: ImageLimits, quality: Int
    ) throws(ImageRefusal) -> ProcessedImage {
        let result: Result<ProcessedImage, ImageRefusal> = data.withUnsafeBytes { raw in
            Result { () throws(ImageRefusal) in
                // The header alone: a decompression bomb is refused before a single pixel is decoded.
                guard let header = spotter_vips_header(raw.baseAddress, raw.count) else {
                    throw .unreadable(Vips.takeError())
                }
                let headerRef = VipsImageRef(header)
                let (width, height) = (headerRef.width, headerRef.height)
                guard width * height <= limits.maxPixels else {
                    throw .tooManyPixels(width: width, height: height, limit: limits.maxPixels)
                }

                var image = try VipsImageRef {
                    spotter_vips_thumbnail_buffer(raw.baseAddress, raw.count, Int32(limits.largeSide), $0)
                }
                if image.hasAlpha {
                    let source = image
                    image = try VipsImageRef { spotter_vips_flatten_white(source.pointer, $0) }
                }
                let source = image
                let large = try VipsImageRef { spotter_vips_srgb8(source.pointer, $0) }.inMemory()
                // The large rendition is already sRGB: its profile would only be applied again below.
                vips_image_remove(large.pointer, "icc-profile-data")

                let small = try VipsImageRef {
                    spotter_vips_thumbnail_image(large.pointer, Int32(limits.smallSide), $0)
                }
                let tiny = try VipsImageRef { spotter_vips_thumbnail_image(large.pointer, 32, $0) }
                let blurhash = BlurHash.encode(rgb: try tiny.bytes(), width: tiny.width, height: tiny.height)
                return ProcessedImage(
                    format: format, width: large.width, height: large.height, blurhash: blurhash,
                    large: try large.strippedJPEG(quality: quality), small: try small.strippedJPEG(quality: quality))
            }
        }
        return try result.get()
    }
}

/// At most `limit` holders at once; the others wait, suspended, in the order they came.
private actor Gate {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ limit: Int) { available = limit }

    func enter() async {
        guard available == 0 else {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the place to the first waiting, if any.
    func leave() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
