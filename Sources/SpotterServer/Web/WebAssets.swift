import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SpotterE2E

/// `/assets/<file>`: the web app's CSS, JavaScript and icons, read from the bundle once at start-up; and
/// `/sw.js`, the service worker that shows Web Push notifications (`assets/sw.js`).
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

    /// Served at the root, not under `/assets/`. A service worker's scope is at most the folder of its script,
    /// so `/sw.js` may control every page, which a notification's click has to open; from `/assets/` it would
    /// need `Service-Worker-Allowed: /`, a header that widens what a file there can claim.
    static let serviceWorker = "sw.js"

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("assets/:file") { _, context in
            guard let name = context.parameters.get("file"), name != Self.serviceWorker, let asset = files[name] else {
                return Response(status: .notFound)
            }
            var headers = HTTPFields()
            headers[.contentType] = asset.contentType
            // No fingerprints in the names, so browsers revalidate after an hour rather than cache forever.
            headers[.cacheControl] = "public, max-age=3600"
            headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
        }
        routes.get(RouterPath(stringLiteral: Self.serviceWorker)) { _, _ in
            guard let asset = files[Self.serviceWorker] else { return Response(status: .notFound) }
            var headers = HTTPFields()
            headers[.contentType] = asset.contentType
            // Browsers look for a new worker at most daily whatever this says; `no-cache` makes a changed one
            // reach them on their next visit.
            headers[.cacheControl] = "no-cache"
            headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
            // A worker runs under the policy its own script arrives with, not the page's: the same one.
            headers[HTTPField.Name("Content-Security-Policy")!] = WebSessionMiddleware.contentSecurityPolicy
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
