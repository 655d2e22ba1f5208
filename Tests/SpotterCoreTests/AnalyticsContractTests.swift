import Foundation
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Analytics storage contract")
struct AnalyticsContractTests {
    @Test(
        "events are stored and counted: daily active users per UTC day, top events", arguments: StorageBackend.available
    )
    func dailyAndTop(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let start = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
            var users: [UserID] = []
            for name in ["ana", "bea"] {
                let account = try await SocialContractTests.user(storage, name)
                users.append(account.id)
            }
            func record(_ user: Int, _ name: String, hoursLater: Double) -> AnalyticsRecord {
                AnalyticsRecord(
                    userID: users[user],
                    event: AnalyticsEvent(
                        name: name, occurredAt: start + hoursLater * 3600, properties: ["screen": "feed"]),
                    receivedAt: start + 48 * 3600)
            }
            try await storage.analytics.insert([
                record(0, "app.open", hoursLater: 0), record(0, "kudos_given", hoursLater: 1),
                record(1, "app.open", hoursLater: 2), record(0, "app.open", hoursLater: 24),
                record(1, "kudos_given", hoursLater: -48),
            ])
            let daily = try await storage.analytics.dailyActiveUsers(since: start - 3600)
            #expect(daily == [DailyCount(day: "2027-01-15", count: 2), DailyCount(day: "2027-01-16", count: 1)])
            let top = try await storage.analytics.topEvents(since: start - 3600, limit: 5)
            #expect(top == [NameCount(name: "app.open", count: 3), NameCount(name: "kudos_given", count: 1)])
            #expect(try await storage.analytics.topEvents(since: start - 3600, limit: 1).count == 1)
        }
    }
}
