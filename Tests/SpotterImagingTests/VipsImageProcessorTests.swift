import Foundation
import SpotterCore
import SpotterTestSupport
import Testing

@testable import SpotterImaging

@Suite("Photos processed with libvips")
struct VipsImageProcessorTests {
    let processor = VipsImageProcessor()
    let limits = ImageLimits(largeSide: 160, smallSide: 40)

    /// Whether two colours are the same within JPEG's error.
    func near(_ seen: [UInt8], _ expected: [UInt8], tolerance: Int = 40) -> Bool {
        seen.count == expected.count && zip(seen, expected).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }

    @Test("a photo's EXIF, GPS, XMP and IPTC are in neither rendition")
    func stripsMetadata() async throws {
        // Given a JPEG that says where it was taken, by whom, with which camera
        let plain = try TestImages.encode(TestImages.cornered(width: 400, height: 300), as: ".jpg[Q=90]")
        let tagged = try TestImages.exiftool(
            plain,
            [
                "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
                "-Make=Spotter Camera", "-Artist=An Athlete", "-XMP-dc:Creator=An Athlete",
                "-IPTC:Keywords=home", "-IPTC:City=Paris",
            ])
        let before = try TestImages.exiftoolTags(tagged)
        #expect(before["GPS:GPSLatitude"] != nil && before["XMP-dc:Creator"] != nil && before["IPTC:City"] != nil)
        #expect(try TestImages.vipsFields(tagged).contains("exif-data"))

        // When it is processed
        let image = try await processor.process(tagged, limits: limits)

        // Then exiftool and libvips find nothing in either rendition but the file's own structure
        for rendition in [image.large, image.small] {
            let tags = try TestImages.exiftoolTags(rendition)
            let groups = Set(tags.keys.compactMap { $0.split(separator: ":").first.map(String.init) })
            #expect(
                groups.isSubset(of: ["SourceFile", "ExifTool", "System", "File", "JFIF", "Composite"]), "\(groups)")
            #expect(!tags.keys.contains { $0.contains("GPS") || $0.contains("Creator") || $0.contains("Keywords") })
            #expect(!tags.values.contains { $0.contains("Athlete") || $0.contains("Paris") || $0.contains("Spotter") })
            #expect(try TestImages.vipsFields(rendition) == [])
        }
    }

    @Test("an EXIF orientation of 6 comes out turned upright")
    func autoRotates() async throws {
        // Given a landscape 300×200 stored with its red corner top left, and EXIF saying "rotate 90° clockwise"
        let stored = try TestImages.encode(TestImages.cornered(width: 300, height: 200), as: ".jpg[Q=95]")
        let tagged = try TestImages.exiftool(stored, ["-n", "-Orientation=6"])
        #expect(try TestImages.vipsFields(tagged).contains("orientation"))

        // When it is processed
        let image = try await processor.process(tagged, limits: ImageLimits(largeSide: 1600, smallSide: 60))

        // Then it is a portrait 200×300 with the red corner top right, in both renditions
        #expect(image.width == 200 && image.height == 300)
        let large = try TestImages.decode(image.large)
        #expect(large.width == 200 && large.height == 300)
        #expect(near(large.pixel(x: 190, y: 10), [255, 0, 0]), "\(large.pixel(x: 190, y: 10))")
        #expect(near(large.pixel(x: 10, y: 10), [0, 0, 255]), "\(large.pixel(x: 10, y: 10))")
        #expect(near(large.pixel(x: 190, y: 290), [0, 0, 255]))
        let small = try TestImages.decode(image.small)
        #expect(small.width == 40 && small.height == 60)
        #expect(near(small.pixel(x: 37, y: 2), [255, 0, 0]), "\(small.pixel(x: 37, y: 2))")
        #expect(near(small.pixel(x: 2, y: 2), [0, 0, 255]))
    }

    @Test("text bytes are refused as text")
    func refusesText() async throws {
        let text = Data("name,distance\nanna,42.2\n".utf8)
        await #expect(throws: ImageRefusal.unsupportedType("text")) {
            try await processor.process(text, limits: limits)
        }
    }

    @Test("a GIF and a BMP are refused for what they are")
    func refusesGIFAndBMP() async throws {
        let gif = try TestImages.encode(TestImages.cornered(width: 20, height: 20), as: ".gif")
        await #expect(throws: ImageRefusal.unsupportedType("GIF")) { try await processor.process(gif, limits: limits) }
        // A BMP's file header: "BM", its size, reserved words, and where its pixels start.
        let bmp = Data([0x42, 0x4D, 0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0]) + Data(count: 56)
        await #expect(throws: ImageRefusal.unsupportedType("BMP")) { try await processor.process(bmp, limits: limits) }
    }

    @Test("a file over the byte limit is refused before anything else")
    func refusesTooLarge() async throws {
        // Given 2 KiB of anything (not even an image) and a limit of 1 KiB, then the size is what is refused
        let data = Data(repeating: 0x41, count: 2048)
        await #expect(throws: ImageRefusal.tooLarge(bytes: 2048, limit: 1024)) {
            try await processor.process(data, limits: ImageLimits(maxBytes: 1024))
        }
    }

    @Test("a 50-megapixel PNG is refused from its header alone, before a pixel is decoded")
    func refusesDecompressionBomb() async throws {
        // Given a 10000×5000 RGB PNG (150 MB of pixels) that compresses to 150 kB
        let bomb = try TestImages.black(width: 10000, height: 5000, bands: 3, as: ".png[compression=9]")
        #expect(bomb.count < 1 << 20)
        // When it is processed whole, it is refused for its size in pixels
        await #expect(throws: ImageRefusal.tooManyPixels(width: 10000, height: 5000, limit: 40_000_000)) {
            try await processor.process(bomb, limits: ImageLimits())
        }
        // And with its pixel data cut away after the header, it is refused the same way, not as unreadable: the
        // refusal came from the header, so no pixel was decoded (a decode would have failed on the missing data)
        let header = bomb.prefix(bomb.count / 20)
        await #expect(throws: ImageRefusal.tooManyPixels(width: 10000, height: 5000, limit: 40_000_000)) {
            try await processor.process(header, limits: ImageLimits())
        }
    }

    @Test("a JPEG, a PNG and a WebP cut short are refused as unreadable", arguments: [".jpg", ".png", ".webp"])
    func refusesTruncated(suffix: String) async throws {
        // Given a noisy photo (so its data is long) cut to the first 60% of its bytes
        var noise = TestImages.Pixels(width: 300, height: 200, bands: 3, bytes: [])
        var generator = SystemRandomNumberGenerator()
        noise.bytes = (0..<300 * 200 * 3).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let whole = try TestImages.encode(noise, as: suffix)
        let truncated = whole.prefix(whole.count * 6 / 10)

        // Then it is refused, not rendered half grey
        await #expect {
            try await processor.process(Data(truncated), limits: limits)
        } throws: { error in
            guard case .unreadable = error as? ImageRefusal else { return false }
            return true
        }
        // And the whole one goes through
        _ = try await processor.process(whole, limits: limits)
    }

    @Test("a PNG's transparency is flattened on white")
    func flattensAlpha() async throws {
        // Given a PNG whose left half is transparent (black underneath) and right half opaque red
        var pixels = TestImages.Pixels(width: 100, height: 50, bands: 4, fill: [0, 0, 0, 0])
        pixels.fill(x: 50..<100, y: 0..<50, with: [255, 0, 0, 255])
        let png = try TestImages.encode(pixels, as: ".png")

        let image = try await processor.process(png, limits: limits)

        #expect(image.format == .png)
        let large = try TestImages.decode(image.large)
        #expect(large.bands == 3)
        #expect(near(large.pixel(x: 10, y: 25), [255, 255, 255]), "\(large.pixel(x: 10, y: 25))")
        #expect(near(large.pixel(x: 90, y: 25), [255, 0, 0]), "\(large.pixel(x: 90, y: 25))")
    }

    @Test("a 16-bit PNG with transparency and a greyscale JPEG come out as 8-bit sRGB")
    func sixteenBitAndGrey() async throws {
        // Given a 16-bit PNG, transparent on the left and half-transparent green on the right
        var samples = [UInt16](repeating: 0, count: 80 * 40 * 4)
        for y in 0..<40 {
            for x in 40..<80 {
                samples.replaceSubrange((y * 80 + x) * 4..<(y * 80 + x) * 4 + 4, with: [0, 65535, 0, 32768])
            }
        }
        let png = try TestImages.encode16(samples, width: 80, height: 40, bands: 4, as: ".png[bitdepth=16]")
        #expect(png[24] == 16)  // IHDR's bit depth
        // And a greyscale JPEG
        let grey = try TestImages.encode(
            TestImages.Pixels(width: 60, height: 30, bands: 1, fill: [128]), as: ".jpg")

        let fromPNG = try TestImages.decode(try await processor.process(png, limits: limits).large)
        let fromGrey = try TestImages.decode(try await processor.process(grey, limits: limits).large)

        // Then both are three 8-bit bands: white where it was transparent, pale green where it was half green
        #expect(fromPNG.bands == 3 && fromPNG.bytes.count == 80 * 40 * 3)
        #expect(near(fromPNG.pixel(x: 5, y: 20), [255, 255, 255]), "\(fromPNG.pixel(x: 5, y: 20))")
        #expect(near(fromPNG.pixel(x: 75, y: 20), [128, 255, 128], tolerance: 12), "\(fromPNG.pixel(x: 75, y: 20))")
        #expect(fromGrey.bands == 3 && near(fromGrey.pixel(x: 30, y: 15), [128, 128, 128]))
    }

    @Test("WebP and HEIC photos are read by what their bytes are", arguments: [".webp", ".heic"])
    func readsWebPAndHEIC(suffix: String) async throws {
        let data = try TestImages.encode(TestImages.cornered(width: 320, height: 240), as: suffix)

        let image = try await processor.process(data, limits: limits)

        #expect(image.format == (suffix == ".webp" ? .webp : .heic))
        #expect(image.width == 160 && image.height == 120)
        let large = try TestImages.decode(image.large)
        #expect(near(large.pixel(x: 5, y: 5), [255, 0, 0]) && near(large.pixel(x: 150, y: 110), [0, 0, 255]))
        #expect(image.large.starts(with: [0xFF, 0xD8, 0xFF]) && image.small.starts(with: [0xFF, 0xD8, 0xFF]))
    }

    @Test("renditions are shrunk to fit, and never enlarged")
    func neverEnlarges() async throws {
        // Given a 120×90 photo, and renditions of at most 160 and 40 pixels a side
        let data = try TestImages.encode(TestImages.cornered(width: 120, height: 90), as: ".jpg")

        let image = try await processor.process(data, limits: limits)

        // Then the large one keeps its size and the small one is shrunk to 40×30
        #expect(image.width == 120 && image.height == 90)
        let large = try TestImages.decode(image.large)
        let small = try TestImages.decode(image.small)
        #expect([large.width, large.height, small.width, small.height] == [120, 90, 40, 30] as [Int])
    }

    @Test("the BlurHash is of the photo: a red photo's placeholder is red")
    func blurhashOfThePhoto() async throws {
        let data = try TestImages.encode(TestImages.Pixels(width: 64, height: 48, fill: [255, 0, 0]), as: ".png")

        let image = try await processor.process(data, limits: limits)

        let red = BlurHash.encode(
            rgb: TestImages.Pixels(width: 32, height: 24, fill: [255, 0, 0]).bytes, width: 32, height: 24)
        #expect(image.blurhash == red)
    }

    @Test("eight photos of four types are processed at once, each into its own renditions")
    func manyAtOnce() async throws {
        // Given photos of each type, made one after the other
        var photos: [(Data, Int)] = []
        for (index, suffix) in [".jpg", ".png", ".webp", ".heic", ".jpg", ".png", ".webp", ".heic"].enumerated() {
            let width = 200 + index * 10
            photos.append((try TestImages.encode(TestImages.cornered(width: width, height: 100), as: suffix), width))
        }
        let processor = VipsImageProcessor(concurrency: 8)

        // When all are processed at once
        let widths = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for (data, width) in photos {
                group.addTask { (width, try await processor.process(data, limits: ImageLimits()).width) }
            }
            return try await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
        }

        // Then each comes out at its own size
        #expect(widths.count == 8 && widths.allSatisfy { $0.0 == $0.1 }, "\(widths)")
    }

    @Test("two photos are processed at the same time, each into its own renditions")
    func concurrent() async throws {
        let wide = try TestImages.encode(TestImages.cornered(width: 1200, height: 600), as: ".jpg")
        let tall = try TestImages.encode(TestImages.cornered(width: 500, height: 1000), as: ".png")

        async let first = processor.process(wide, limits: ImageLimits())
        async let second = processor.process(tall, limits: ImageLimits())
        let (a, b) = try await (first, second)

        #expect((a.width, a.height, a.format) == (1200, 600, .jpeg))
        #expect((b.width, b.height, b.format) == (500, 1000, .png))
        #expect(try TestImages.decode(a.small).width == 400 && TestImages.decode(b.small).height == 400)
    }
}
