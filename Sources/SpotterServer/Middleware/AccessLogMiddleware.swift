import Hummingbird

/// One log line per request: method, path, status, duration.
///
/// Only the path is logged, never the query string or headers, because both can carry secrets (the realtime
/// socket takes its token as `?token=`, and every API call has an `Authorization` header). A route whose path
/// itself carries a secret is logged by its pattern instead (`/api/v1/notifications/devices/{token}`).
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    /// Routes whose path parameters are secrets. An APNs device token addresses pushes to one person's phone;
    /// clients now send it in the body of `DELETE /api/v1/notifications/devices`, but older ones still call
    /// this route.
    static let redactedRoutes: Set<String> = ["/api/v1/notifications/devices/{token}"]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        // The message is built only when the level logs it: below, the route look-up costs nothing.
        context.logger.info(
            "\(request.method) \(Self.loggedPath(request, context)) \(response.status.code)",
            metadata: ["duration_ms": .string(Self.milliseconds(elapsed))])
        return response
    }

    /// The duration in milliseconds to one decimal, rounded half up: "0.4", "12.0". Integer arithmetic, where
    /// `String(format: "%.1f")` went through Foundation's printf on every request.
    static func milliseconds(_ elapsed: Duration) -> String {
        let (seconds, attoseconds) = elapsed.components
        let tenths = seconds * 10_000 + (attoseconds + 50_000_000_000_000) / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    static func loggedPath(_ request: Request, _ context: Context) -> String {
        context.endpointPath.flatMap { redactedRoutes.contains($0) ? $0 : nil } ?? request.uri.path
    }
}
