import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import SpotterCore
import SpotterModels

/// Turns every error a handler throws into an RFC 9457 problem+json response, so no input, however
/// malformed, ends in a dropped connection or an unexplained status.
///
/// Domain errors map by meaning; Hummingbird's own errors (unknown route, body too large) keep their status;
/// anything else is a 500 whose detail stays in the log, never in the response.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            return ProblemResponse.make(for: error, context: context)
        }
    }
}

enum ProblemResponse {
    static func make(for error: any Error, context: AppRequestContext) -> Response {
        var headers = HTTPFields()
        let problem: Problem
        switch error {
        case let error as SpotterError:
            problem = map(error, headers: &headers)
        case is HTTPParserError:
            // A body that broke off mid-read (a chunk size that overflows, say): the client's fault, and the
            // connection guard closes the connection after this answer.
            problem = Problem(title: "Bad Request", status: 400, detail: "The request's body is not valid HTTP/1.1.")
        case let error as any HTTPResponseError:
            let status = Int(error.status.code)
            problem = Problem(
                title: error.status.reasonPhrase, status: status, detail: status == 404 ? "No such resource." : nil)
            if error.status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
            // What the error says beside its status (`Allow` with a 405) goes out with the problem.
            if let error = error as? HTTPError, let allow = error.headers[.allow] { headers[.allow] = allow }
        default:
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            problem = Problem(title: "Internal Server Error", status: 500, detail: "Something went wrong on our side.")
        }
        return response(for: problem, headers: headers, requestID: context.requestID)
    }

    static func response(for problem: Problem, headers: HTTPFields = [:], requestID: String) -> Response {
        var problem = problem
        problem.requestID = requestID.isEmpty ? nil : requestID
        var headers = headers
        headers[.contentType] = "application/problem+json"
        let body = (try? JSONCoding.encoder.encode(problem)) ?? Data()
        return Response(
            status: .init(code: problem.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func map(_ error: SpotterError, headers: inout HTTPFields) -> Problem {
        switch error {
        case .validation(let errors):
            return Problem(
                title: "Unprocessable Content", status: 422, detail: "Some fields are not valid.", errors: errors)
        case .malformed(let detail, let field):
            return Problem(
                title: "Bad Request", status: 400, detail: detail,
                errors: field.map { [FieldError(field: $0, detail: detail)] })
        case .unauthorized(let detail):
            headers[.wwwAuthenticate] = #"Bearer error="invalid_token""#
            return Problem(title: "Unauthorized", status: 401, detail: detail)
        case .forbidden(let detail):
            return Problem(title: "Forbidden", status: 403, detail: detail)
        case .notFound(let detail):
            return Problem(title: "Not Found", status: 404, detail: detail)
        case .conflict(let field, let detail):
            return Problem(
                title: "Conflict", status: 409, detail: detail, errors: [FieldError(field: field, detail: detail)])
        case .rateLimited(let retryAfter, let detail, let retryAt):
            headers[.retryAfter] = String(retryAfter)
            return Problem(title: "Too Many Requests", status: 429, detail: detail, retryAt: retryAt)
        case .unavailable(let detail):
            headers[.retryAfter] = "30"
            return Problem(title: "Service Unavailable", status: 503, detail: detail)
        }
    }
}
