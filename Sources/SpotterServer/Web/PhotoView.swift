import Foundation
import SpotterModels

/// A post's photo as the templates draw it: a responsive `<img srcset>` over the two renditions, sized so the
/// page does not jump when it loads, with its BlurHash for `photos.js` to paint as a placeholder.
struct PhotoView {
    let url: String
    let previewURL: String
    /// `<small> 400w, <large> 1600w`, each at its real width (renditions keep the photo's shape).
    let srcset: String
    let sizes: String
    let width: Int
    let height: Int
    /// Empty only when the author gave no description.
    let alt: String
    let hasAlt: Bool
    let blurhash: String
    /// "Photo 2 of 3", for the lightbox link's name when there is no alt text.
    let label: String

    /// Longest side of the small and large renditions (`MediaRendition`).
    static let smallSide = 400
    static let largeSide = 1600

    init(_ attachment: MediaAttachment, index: Int, count: Int) {
        url = attachment.url
        previewURL = attachment.previewURL
        width = attachment.width
        height = attachment.height
        let small = Self.renditionWidth(width: width, height: height, side: Self.smallSide)
        let large = Self.renditionWidth(width: width, height: height, side: Self.largeSide)
        srcset = "\(attachment.previewURL) \(small)w, \(attachment.url) \(large)w"
        // One photo spans the card; in the grid, two to a row. The card is at most 728 px wide (`.page`).
        sizes = count == 1 ? "(max-width: 760px) 100vw, 728px" : "(max-width: 760px) 50vw, 364px"
        alt = attachment.description ?? ""
        hasAlt = !alt.isEmpty
        blurhash = attachment.blurhash
        label = "Photo \(index + 1) of \(count)"
    }

    static func views(_ media: [MediaAttachment]) -> [PhotoView] {
        media.enumerated().map { PhotoView($0.element, index: $0.offset, count: media.count) }
    }

    /// The width of a rendition whose longest side is at most `side` (never enlarged).
    static func renditionWidth(width: Int, height: Int, side: Int) -> Int {
        let longest = max(width, height)
        guard longest > side, longest > 0 else { return max(width, 1) }
        return max(1, Int((Double(width) * Double(side) / Double(longest)).rounded()))
    }
}
