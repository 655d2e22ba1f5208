import Foundation
import Logging
import SpotterCore
import SpotterTestSupport
import Testing

@testable import SpotterServer

/// The OpenAPI document is the contract: every route the server has is documented, and every documented
/// route exists. schemathesis (run by scripts/test) then checks each response against the document.
@Suite("OpenAPI contract")
struct OpenAPIContractTests {
    @Test("the router and the document list the same routes")
    func sameRoutes() async throws {
        try await StorageBackend.sqlite.withStorage { storage in
            let configuration = AppConfiguration()
            let clock = SystemClock()
            let accounts = AccountService(
                storage: storage, hasher: BcryptPasswordHasher(cost: 4), clock: clock,
                throttle: SigninThrottle(clock: clock), apple: nil)
            let router = buildRouter(configuration: configuration, storage: storage, accounts: accounts, clock: clock)
            let served = Set(router.routes.map { "\($0.method.rawValue) \(Self.normalize("\($0.path)"))" })
            let documented = try Self.documentedRoutes()
            #expect(
                served == documented,
                "only served: \(served.subtracting(documented)); only documented: \(documented.subtracting(served))")
        }
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
