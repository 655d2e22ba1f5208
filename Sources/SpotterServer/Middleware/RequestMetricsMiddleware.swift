import Dispatch
import HTTPTypes
import Hummingbird
import Metrics
import Synchronization

/// Counts requests and times them under Hummingbird's metric names (`hb.requests`,
/// `http.server.request.duration`, `hb.request.errors`, `http.server.active_requests`), so dashboards built
/// for Hummingbird's `MetricsMiddleware` read ours unchanged.
///
/// Why not Hummingbird's own: it records after the body is written, by wrapping the body in a closure. A
/// closure body loses Hummingbird's fast path, which writes a buffered response's head, body and end in one
/// go, so every response cost two `write(2)` calls, each a trip through the kernel's TCP send, instead of
/// one. Here a request is recorded when its response is ready. Every API and page response is a buffer by
/// then, so the duration misses only the copy into the socket; for a streamed body it is the time to the first
/// byte.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let cache = RequestMetricsCache()

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let active = cache.active(request.method)
        active.increment()
        defer { active.decrement() }
        do {
            let response = try await next(request, context)
            let metrics = cache.endpoint(
                .init(route: context.endpointPath ?? "Unknown", method: request.method, status: response.status))
            metrics.requests.increment()
            metrics.duration.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let metrics = cache.endpoint(
                .init(route: context.endpointPath ?? "NotFound", method: request.method, status: status))
            metrics.requests.increment()
            metrics.errors.increment()
            throw error
        }
    }
}

/// Each route, method and status's metrics, made once: swift-metrics' constructors look the label up in the
/// backend's registry, under its lock, which is dearer than this dictionary.
private final class RequestMetricsCache: Sendable {
    struct Endpoint: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: HTTPResponse.Status
    }

    struct EndpointMetrics: Sendable {
        let requests: Counter
        let duration: Metrics.Timer
        let errors: Counter

        init(_ id: Endpoint) {
            let code = id.status.code.description
            let route = ("http.route", id.route)
            let method = ("http.request.method", id.method.description)
            requests = Counter(label: "hb.requests", dimensions: [route, method, ("http.response.status_code", code)])
            duration = Metrics.Timer(
                label: "http.server.request.duration",
                dimensions: [route, method, ("http.response.status_code", code)], preferredDisplayUnit: .seconds)
            errors = Counter(label: "hb.request.errors", dimensions: [route, method, ("error.type", code)])
        }
    }

    private let endpoints = Mutex<[Endpoint: EndpointMetrics]>([:])
    private let meters = Mutex<[HTTPRequest.Method: Meter]>([:])

    func endpoint(_ id: Endpoint) -> EndpointMetrics {
        endpoints.withLock { known in
            if let metrics = known[id] { return metrics }
            let metrics = EndpointMetrics(id)
            known[id] = metrics
            return metrics
        }
    }

    func active(_ method: HTTPRequest.Method) -> Meter {
        meters.withLock { known in
            if let meter = known[method] { return meter }
            let meter = Meter(
                label: "http.server.active_requests", dimensions: [("http.request.method", method.description)])
            known[method] = meter
            return meter
        }
    }
}
