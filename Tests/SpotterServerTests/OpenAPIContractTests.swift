import Crypto
import Foundation
import Logging
import SpotterCore
import SpotterTestSupport
import Testing

@testable import SpotterServer

/// The OpenAPI document is the contract: every API route the server has is documented, and every documented
/// route exists. schemathesis (run by scripts/test) then checks each response against the document.
///
/// The web app's HTML pages (`/`, `/signin`, `/posts/{id}`…) are not part of the JSON API and are not in the
/// document; everything under `/api/` is compared strictly, and documented routes outside it (`/healthz`,
/// `/metrics`…) must still be served.
@Suite("OpenAPI contract")
struct OpenAPIContractTests {
    @Test("the router and the document list the same routes")
    func sameRoutes() async throws {
        try await StorageBackend.sqlite.withStorage { storage in
            let configuration = AppConfiguration()
            let blobs = try LocalBlobStore(
                root: FileManager.default.temporaryDirectory.appendingPathComponent("spotter-openapi-\(UUID())"),
                baseURL: URL(string: configuration.siteURL)!, signingKey: SymmetricKey(size: .bits256))
            let services = AppServices(
                configuration: configuration, storage: storage, clock: SystemClock(), events: nil, blobs: blobs,
                logger: Logger(label: "test"))
            let router = buildRouter(configuration: configuration, storage: storage, services: services, blobs: blobs)
            let served = Set(router.routes.map { "\($0.method.rawValue) \(Self.normalize("\($0.path)"))" })
            let documented = try Self.documentedRoutes()
            let servedAPI = served.filter(Self.isAPI)
            let documentedAPI = documented.filter(Self.isAPI)
            #expect(
                servedAPI == documentedAPI,
                """
                only served: \(servedAPI.subtracting(documentedAPI)); \
                only documented: \(documentedAPI.subtracting(servedAPI))
                """)
            #expect(
                documented.isSubset(of: served), "documented but not served: \(documented.subtracting(served))")
            // The web app is mounted at `/`; a page put under `/api/` would fail the strict comparison above.
            #expect(served.contains("GET /"))
        }
    }

    @Test("every time zone the document lists is one the server takes")
    func timeZones() throws {
        // Given the document's TimeZone enum (the IANA database's names)
        let text = try String(contentsOf: OpenAPIFile.url, encoding: .utf8)
        let schema = try #require(text.range(of: "\n    TimeZone:\n"))
        let list = try #require(text.range(of: "enum: [", range: schema.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "]", range: list.upperBound..<text.endIndex))
        let zones = text[list.upperBound..<end.lowerBound].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(zones.count > 500 && zones.contains("Europe/Berlin") && zones.contains("UTC"))
        // Then the profile's and quiet hours' rule takes each of them
        #expect(zones.filter { !AccountRules.isTimeZone($0) } == [])
    }

    /// `METHOD /api/...`: a JSON API route.
    static func isAPI(_ route: String) -> Bool {
        route.split(separator: " ").last?.hasPrefix("/api/") == true
    }

    /// `METHOD /path` for each operation, read from the document's `paths` section.
    static func documentedRoutes() throws -> Set<String> {
        let text = try String(contentsOf: OpenAPIFile.url, encoding: .utf8)
        var routes = Set<String>()
        var currentPath: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "components:" { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if let path = currentPath, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
                if ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(method) {
                    routes.insert("\(method) \(normalize(path))")
                }
            }
        }
        return routes
    }

    /// Parameters as `{}` whether written `{id}` (OpenAPI) or `:id` (router), and no trailing slash.
    static func normalize(_ path: String) -> String {
        let parts = path.split(separator: "/").map { part -> String in
            part.hasPrefix("{") || part.hasPrefix(":") ? "{}" : String(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
