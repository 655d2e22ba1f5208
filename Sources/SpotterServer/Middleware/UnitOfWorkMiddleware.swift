import Hummingbird
import SpotterCore

/// Makes every mutating request (POST, PUT, PATCH, DELETE) one unit of work (`SpotterStorage.write`), on the
/// API and the web app alike, with or without an `Idempotency-Key`: the request's rows, kept counts,
/// notifications, jobs and idempotency record commit together when the handler returns, or not at all when
/// it throws, and the events it published leave after the commit. The answer leaves after the commit too, so
/// an acknowledged write is on disk (on SQLite, synced with the batch it committed in).
///
/// It runs inside `ProblemMiddleware`, so a thrown error rolls the unit back before it becomes a problem
/// response. Reads (GET, HEAD) open no unit: they change nothing.
struct UnitOfWorkMiddleware<Context: RequestContext>: RouterMiddleware {
    let storage: any SpotterStorage
    /// `AppConfiguration.faultAfterHandler`.
    var fault: (@Sendable (HTTPFields) -> (any Error)?)?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard Self.changes(request.method) else { return try await next(request, context) }
        do {
            return try await storage.write {
                let response = try await next(request, context)
                if let error = fault?(request.headers) { throw error }
                return response
            }
        } catch let undone as UndoneResponse {
            return undone.response
        }
    }

    /// Whether a request with this method may change anything (and so runs in a unit).
    static func changes(_ method: HTTPRequest.Method) -> Bool {
        [.post, .put, .patch, .delete].contains(method)
    }
}

/// An answer whose request must leave nothing behind (a server error or 429 that must not be replayed, a
/// duplicate of a request that stored its answer first): thrown through the request's unit, which rolls back
/// whole, and sent once it has (`UnitOfWorkMiddleware`).
struct UndoneResponse: Error {
    let response: Response
}
