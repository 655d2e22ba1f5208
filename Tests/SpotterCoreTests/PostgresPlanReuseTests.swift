import Foundation
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterPostgres
import SpotterTestSupport
import Testing

/// PostgreSQL plans a feed page once per connection, not once per request (issue 8): planning the Following
/// feed took longer than running it. A prepared statement's plan is reused only when PostgreSQL costs its
/// generic plan no dearer than the custom ones, which a bound LIMIT prevented.
@Suite("PostgreSQL plan reuse")
struct PostgresPlanReuseTests {
    @Test(
        "a feed page keeps one generic plan per connection after five runs, whatever the page size asked",
        .enabled(if: StorageBackend.postgresURL != nil))
    func feedPagesReuseTheirPlan() async throws {
        try await StorageBackend.withOneConnectionPostgres { storage in
            // A community big enough for PostgreSQL's estimates to matter: with a bound LIMIT it costs the
            // generic plan as returning a tenth of 20,000 posts and keeps planning each run.
            let others = (0..<200).map { BulkLoadingContractTests.account("member\($0)") }
            let me = BulkLoadingContractTests.account("me")
            let friend = BulkLoadingContractTests.account("friend")
            try await storage.loadAccounts(others + [me, friend])
            try await storage.loadFollows([(follower: me.id, followee: friend.id, at: BulkLoadingContractTests.start)])
            try await storage.loadPosts(
                (0..<20_000).map {
                    BulkLoadingContractTests.post(by: others[$0 % 200], minutes: Double($0), text: "p\($0)")
                })
            var made: [PostID] = []
            for index in 0..<30 {
                let post = BulkLoadingContractTests.post(
                    by: index.isMultiple(of: 2) ? me : friend, minutes: 20_000 + Double(index), text: "mine \(index)")
                try await storage.posts.insert(post)
                made.append(post.id)
            }
            try await storage.analyze()
            // Asked as of a time, as the API asks, a page reads the last month first: its candidates, then
            // the page made of them. Asked without, it walks the newest posts. Each statement keeps its plan.
            let now = BulkLoadingContractTests.start.addingTimeInterval(20_100 * 60)
            for asOf in [nil, now] {
                for limit in [21, 5, 21, 3, 21, 21, 8, 21, 21, 21] {
                    let page = try await storage.posts.feed(
                        FeedQuery(source: .following, limit: limit, asOf: asOf), viewer: me.id)
                    #expect(page.map(\.id) == Array(made.reversed().prefix(limit)))
                }
            }
            // The pool holds one connection, so this is the session that ran the pages.
            var plans: [String: (generic: Int64, custom: Int64)] = [:]
            for try await (name, generic, custom) in try await storage.client.query(
                "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'feed.%'",
                logger: StorageBackend.logger
            ).decode((String, Int64, Int64).self) {
                plans[name] = (generic, custom)
            }
            #expect(plans.count == 3, "every page size up to the default shares one statement: \(plans.keys)")
            for name in [
                "feed.FollowingFeedShape.FirstPageShape.21", "feed.following-candidates.BeforeCursorShape.63",
                "feed.GivenPostsShape.FirstPageShape.21",
            ] {
                let plan = try #require(plans[name])
                #expect(plan.custom <= 5 && plan.generic >= 5, "\(name): planned \(plan.custom) times of 10")
            }
        }
    }

    @Test("Spotter's connections never JIT-compile a plan", .enabled(if: StorageBackend.postgresURL != nil))
    func noJIT() async throws {
        try await StorageBackend.withOneConnectionPostgres { storage in
            var setting: [String] = []
            for try await value in try await storage.client.query("SHOW jit", logger: StorageBackend.logger)
                .decode(String.self)
            {
                setting.append(value)
            }
            #expect(setting == ["off"])
        }
    }
}
