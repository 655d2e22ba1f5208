import Foundation

/// What a file really is, from its first bytes: the declared content type and the file name are the
/// uploader's word, and libvips would happily open formats (SVG, PDF, TIFF …) Spotter does not take.
public enum ImageSniffer {
    /// The supported format these bytes are, or the refusal, saying what they look like when we can tell.
    public static func format(of data: Data) throws(ImageRefusal) -> ImageFormat {
        let head = [UInt8](data.prefix(64))
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }

        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if ascii("RIFF") && ascii("WEBP", at: 8) { return .webp }
        if ascii("ftyp", at: 4) {
            // ISO base media: HEIC photos name an HEVC brand; AVIF (AV1) and videos are refused.
            let brands = heifBrands(head)
            if !brands.isDisjoint(with: ["heic", "heix", "heim", "heis", "hevc", "hevx"]) { return .heic }
            if !brands.isDisjoint(with: ["avif", "avis"]) { throw .unsupportedType("AVIF") }
            throw .unsupportedType("a video or another ISO media file")
        }
        if ascii("GIF87a") || ascii("GIF89a") { throw .unsupportedType("GIF") }
        if ascii("BM") { throw .unsupportedType("BMP") }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { throw .unsupportedType("TIFF") }
        if ascii("%PDF") { throw .unsupportedType("PDF") }
        if starts([0x00, 0x00, 0x01, 0x00]) { throw .unsupportedType("an icon") }
        let text = String(decoding: head, as: UTF8.self).lowercased()
        if text.contains("<svg") || text.hasPrefix("<?xml") { throw .unsupportedType("SVG or XML") }
        if !head.isEmpty && head.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0) }) {
            throw .unsupportedType("text")
        }
        throw .unsupportedType(nil)
    }

    /// The major and compatible brands of an `ftyp` box at the start of the file.
    private static func heifBrands(_ head: [UInt8]) -> Set<String> {
        guard head.count >= 12 else { return [] }
        let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let end = min(head.count, max(12, size))
        var brands: Set<String> = [String(decoding: head[8..<12], as: UTF8.self)]
        var offset = 16  // after the major brand and minor version
        while offset + 4 <= end {
            brands.insert(String(decoding: head[offset..<offset + 4], as: UTF8.self))
            offset += 4
        }
        return brands
    }
}
