import HTTPTypes
import Hummingbird
import SpotterModels

/// Answers a method a path does not take with 405 and `Allow` (RFC 9110 §15.5.6), where the router alone
/// would say 404 as if the path were not there.
///
/// Hummingbird's router sends a known path with an unknown method to the same not-found responder as an unknown
/// path. Middleware added to the router after every route wraps only that responder, so this one is added last
/// (`buildRouter`) and asks the router's route table, taken at that moment, which methods the path has.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let routes: RouteMethods

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = routes.methods(for: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            return ProblemResponse.response(
                for: Problem(
                    title: "Method Not Allowed", status: 405,
                    detail: "\(request.uri.path) takes \(allow), not \(request.method.rawValue)."),
                headers: [.allow: allow], requestID: context.requestID)
        }
    }
}

/// Which methods each routed path takes, matched the way the router matches paths.
struct RouteMethods: Sendable {
    private let routes: [(path: RouterPath, methods: [HTTPRequest.Method])]

    init(_ routes: [Router<AppRequestContext>.RouteDescription]) {
        var byPath: [String: (path: RouterPath, methods: [HTTPRequest.Method])] = [:]
        for route in routes {
            byPath[route.path.description, default: (route.path, [])].methods.append(route.method)
        }
        self.routes = Array(byPath.values)
    }

    /// The methods of every route whose path matches, sorted by name; empty when no route has this path.
    ///
    /// Where a fixed segment and a parameter both match (`/media/direct` and `/media/:id`), the router takes the
    /// fixed one, and so does this: only the most specific matching routes count.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let matching = routes.filter { Self.matches($0.path, segments) }
        guard let best = matching.map({ Self.fixedness($0.path) }).max(by: { $0.lexicographicallyPrecedes($1) })
        else { return [] }
        var methods: Set<HTTPRequest.Method> = []
        for route in matching where Self.fixedness(route.path) == best {
            methods.formUnion(route.methods)
        }
        return methods.sorted { $0.rawValue < $1.rawValue }
    }

    /// 1 for each fixed segment, 0 for a parameter or wildcard, in order: larger is more specific.
    static func fixedness(_ path: RouterPath) -> [Int] {
        path.components.map { component in
            let text = component.description
            return text.hasPrefix(":") || text.hasPrefix("{") || text.contains("*") ? 0 : 1
        }
    }

    static func matches(_ path: RouterPath, _ segments: [Substring]) -> Bool {
        for (index, element) in path.components.enumerated() {
            if element.description == "**" { return true }
            guard index < segments.count, element ~= segments[index] else { return false }
        }
        return path.components.count == segments.count
    }
}
