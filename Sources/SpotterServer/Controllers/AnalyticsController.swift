import Hummingbird
import SpotterCore
import SpotterModels

/// `POST /api/v1/analytics/events`: a batch of events from the signed-in user's app, stored whole or refused
/// whole with every bad field named.
struct AnalyticsController {
    let analytics: AnalyticsService

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post("events") { request, context in
            let batch = try await request.decodeJSON(AnalyticsBatch.self, context: context)
            let accepted = try await analytics.record(batch, from: try context.requireViewer())
            return EditedResponse(status: .accepted, response: accepted)
        }
        return routes
    }
}

extension AnalyticsAccepted: ResponseEncodable {}
