import Foundation
import Hummingbird

/// One log line per request: method, path, status, duration.
///
/// Only the path is logged, never the query string or headers, because both can carry secrets (the realtime
/// socket takes its token as `?token=`, and every API call has an `Authorization` header).
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info(
            "\(request.method) \(request.uri.path) \(response.status.code)",
            metadata: ["duration_ms": .string(String(format: "%.1f", milliseconds))])
        return response
    }
}
