import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Analytics over HTTP")
struct AnalyticsAPITests {
    @Test(
        "a signed-in batch is stored; a bad one is refused whole, naming each field",
        arguments: StorageBackend.available)
    func batches(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let now = Date(timeIntervalSince1970: api.clock.now.timeIntervalSince1970.rounded())
            let good = AnalyticsBatch(events: [
                AnalyticsEvent(name: "app.open", occurredAt: now - 60),
                AnalyticsEvent(name: "kudos_given", occurredAt: now, properties: ["screen": "feed"]),
            ])
            let accepted = try await api.call(.post, "/api/v1/analytics/events", token: ana, body: good)
            #expect(accepted.status == .accepted)
            #expect(try accepted.decode(AnalyticsAccepted.self).accepted == 2)
            #expect(try await api.call(.post, "/api/v1/analytics/events", body: good).status == .unauthorized)
            let bad = AnalyticsBatch(events: [
                AnalyticsEvent(name: "Bad Name!", occurredAt: now),
                AnalyticsEvent(name: "late", occurredAt: now - 8 * 24 * 3600),
            ])
            let refused = try await api.call(.post, "/api/v1/analytics/events", token: ana, body: bad)
            #expect(refused.status == .badRequest || refused.status == .unprocessableContent)
            let problem = try refused.decode(Problem.self)
            #expect(problem.errors?.map(\.field) == ["events[0].name", "events[1].occurred_at"])
            let empty = try await api.call(
                .post, "/api/v1/analytics/events", token: ana, body: AnalyticsBatch(events: []))
            #expect(try empty.decode(Problem.self).errors?.map(\.field) == ["events"])
            // What `spotter analytics` prints comes from the same service.
            let report = try await AnalyticsService(storage: api.storage, clock: api.clock).report(days: 1)
            #expect(report.topEvents.map(\.name) == ["app.open", "kudos_given"], "nothing of the refused batch")
        }
    }
}
