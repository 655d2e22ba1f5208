import Hummingbird
import SpotterCore
import SpotterModels

/// `GET /api/v1/search?q=…&type=users|tags|posts|groups&limit=…&cursor=…`.
struct SearchController {
    let search: SearchService

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get { request, context in
            let query = request.uri.queryParameters
            return try await search.search(
                query: query["q"].map(String.init), type: query["type"].map(String.init),
                limit: query["limit"].map(String.init), cursor: query["cursor"].map(String.init),
                viewer: context.viewer)
        }
        return routes
    }
}

extension SearchResults: ResponseEncodable {}
