import Foundation
import Hummingbird
import NIOCore
import Prometheus
import SpotterCore

/// Liveness, readiness, metrics and the API document: what operators and load balancers ask.
struct OperationsController {
    let storage: any SpotterStorage
    let metrics: PrometheusCollectorRegistry

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("healthz") { _, _ in Self.json(#"{"status":"ok"}"#) }
        routes.get("readyz") { _, context in
            do {
                try await storage.ping()
                return Self.json(#"{"status":"ok","database":"ok"}"#)
            } catch {
                context.logger.warning("readiness check failed", metadata: ["error": "\(error)"])
                return Self.json(#"{"status":"unavailable","database":"unreachable"}"#, status: .serviceUnavailable)
            }
        }
        routes.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.emitToBuffer())))
        }
        routes.get("api/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: .init(byteBuffer: ByteBuffer(data: OpenAPIDocument.data)))
        }
        return routes
    }

    private static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// The OpenAPI 3.1 document, bundled with the server so it is served exactly as it is in the repository.
enum OpenAPIDocument {
    static let data: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
            let data = try? Data(contentsOf: url)
        else { return Data("openapi: 3.1.0\n".utf8) }
        return data
    }()
}
