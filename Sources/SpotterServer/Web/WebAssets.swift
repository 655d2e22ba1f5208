import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SpotterE2E

/// `/assets/<file>`: the web app's CSS, JavaScript and icons, read from the bundle once at start-up.
///
/// A handful of small files, so they are kept in memory; names are looked up in that table, never joined to
/// a path, so no request can reach another file.
struct WebAssets: Sendable {
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
    }

    let files: [String: Asset]

    init() {
        var files: [String: Asset] = [:]
        if let folder = Bundle.module.url(forResource: "web", withExtension: nil)?.appendingPathComponent("assets"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        {
            for name in names where !name.hasPrefix(".") {
                guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
                    continue
                }
                files[name] = Asset(body: ByteBuffer(bytes: data), contentType: Self.contentType(of: name))
            }
        }
        // The recovery key's words, for the page's script: SpotterE2E's own list, so that every client reads
        // the same 2,048 words.
        files["bip39-english.txt"] = Asset(
            body: ByteBuffer(string: RecoverySecret.englishWords.joined(separator: "\n") + "\n"),
            contentType: Self.contentType(of: "bip39-english.txt"))
        self.files = files
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("assets/:file") { _, context in
            guard let name = context.parameters.get("file"), let asset = files[name] else {
                return Response(status: .notFound)
            }
            var headers = HTTPFields()
            headers[.contentType] = asset.contentType
            // No fingerprints in the names, so browsers revalidate after an hour rather than cache forever.
            headers[.cacheControl] = "public, max-age=3600"
            headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
        }
        return routes
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "txt": "text/plain; charset=utf-8"
        case "png": "image/png"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }
}
