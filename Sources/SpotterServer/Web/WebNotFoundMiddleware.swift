import Hummingbird

/// An unknown address outside the API answers a browser with a page rather than a problem document.
///
/// The router's own 404 for an unmatched path never reaches the web routes' middleware, so this one sits on
/// the router; it touches nothing under `/api/` and nothing a non-browser asked for.
struct WebNotFoundMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let pages: WebPages

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard request.method == .get, !request.uri.path.hasPrefix("/api/"),
                request.headers[.accept]?.contains("text/html") == true
            else { throw error }
            return pages.error(
                status: .notFound, title: "Not found", detail: "There is nothing at this address.", context: context)
        }
    }
}
