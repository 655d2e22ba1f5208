import Foundation
import Logging
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// The reminder sweep over a real database, and digests going out through the queue by push and email.
@Suite("Reminders and digests")
struct RemindersTests {
    static let zone = "America/Los_Angeles"

    /// The first moment after `date` that is `weekday` (1 Sunday … 7 Saturday) at `hour`:00 in Los Angeles.
    static func next(weekday: Int, hour: Int, after date: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar.nextDate(
            after: date, matching: DateComponents(hour: hour, minute: 0, second: 0, weekday: weekday),
            matchingPolicy: .nextTime)!
    }

    static func moveClock(_ api: APIClient, to date: Date) {
        api.clock.advance(by: date.timeIntervalSince(api.clock.now))
    }

    @Test(
        "Sunday 18:00 local: a streak reminder pushed at once, the week's summary in Monday morning's digest by push and email; sweeping again sends nothing twice",
        arguments: StorageBackend.available)
    func sundayEvening(backend: StorageBackend) async throws {
        let week: TimeInterval = 7 * 86_400
        try await TestApp.run(
            backend,
            configure: {
                $0.postRules.newAccountAge = 0
                $0.tokenLifetimes.accessToken = 3 * week  // the test moves the clock a week and more
            }
        ) { api in
            let (ana, anaID, _) = try await NotificationDeliveryTests.ana(api)
            _ = try await api.call(.patch, "/api/v1/me", token: ana, json: #"{"time_zone":"\#(Self.zone)"}"#)
            let sunday = Self.next(weekday: 1, hour: 18, after: api.clock.now + 7 * 86_400)
            Self.moveClock(api, to: sunday - 6 * 3600)
            // Friday and Saturday mornings: a two-day streak, nothing yet on Sunday.
            try await api.workout(ana, "Friday", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: sunday - 59 * 3600)
            try await api.workout(ana, "Saturday", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: sunday - 35 * 3600)
            // Bea trained too, but long ago: no streak, no week to sum.
            let bea = try await api.user("bea")
            try await api.workout(bea, "Old", sets: [WorkoutSet(weightKg: 60, reps: 5)], at: sunday - 6 * 86_400)
            _ = try await api.call(.post, "/api/v1/notifications/seen", token: ana, json: "{}")

            let notifier = Notifier(storage: api.storage, clock: api.clock, events: nil, logger: StorageBackend.logger)
            let sweep = ReminderSweep(storage: api.storage, notifier: notifier)
            #expect(try await sweep.run(since: sunday - 600, now: sunday - 60) == 0, "not evening yet")
            Self.moveClock(api, to: sunday + 120)
            #expect(try await sweep.run(since: sunday - 60, now: api.clock.now) == 2)
            // A second node (or a restart looking back) sweeps the same evening: nothing new.
            #expect(try await sweep.run(since: sunday - 3600, now: api.clock.now) == 2)
            let inbox = try await NotificationsAPITests.inbox(api, ana)
            #expect(
                inbox.filter { $0.type == .streakAtRisk }.map(\.text) == [
                    "Your 2-day streak ends tonight. A short workout keeps it going."
                ])
            let summary = "Your week: 2 workouts, 2 h and 1,000 kg lifted."
            #expect(inbox.filter { $0.type == .weeklySummary }.map(\.text) == [summary])
            #expect(try await NotificationsAPITests.inbox(api, try await api.user("cyd")).isEmpty)
            #expect(try await api.storage.notifications.counts(of: anaID).unseen == 2)

            let transport = RecordingTransport()
            let runner = DeliveryRunner(
                storage: api.storage, clock: api.clock, transport: transport, logger: StorageBackend.logger)
            #expect(try await runner.runDue() == 1)
            #expect(
                transport.sent.map(\.message.body) == [
                    "Your 2-day streak ends tonight. A short workout keeps it going."
                ])

            // The summary waits for Monday 08:00 in Los Angeles, then goes by push and by email.
            Self.moveClock(api, to: sunday + 14 * 3600 - 60)
            #expect(try await runner.runDue() == 0)
            Self.moveClock(api, to: sunday + 14 * 3600)
            #expect(try await runner.runDue() >= 1)
            let digest = transport.sent.dropFirst()
            #expect(
                digest.map(\.target.key).sorted()
                    == [
                        DeliveryTarget.apns(token: NotificationDeliveryTests.phone).key,
                        DeliveryTarget.email(address: "ana@example.com").key,
                    ].sorted())
            let email = try #require(digest.first { $0.target == .email(address: "ana@example.com") }?.message)
            #expect(email.subject == "Your Spotter digest: 1 weekly summary")
            #expect(email.text.contains(summary))
            #expect(email.html.contains("<p>\(summary)</p>"))
            #expect(digest.first { $0.target != .email(address: "ana@example.com") }?.message.body == summary)
            #expect(try await api.storage.deliveries.pendingJobs(of: anaID).isEmpty)
        }
    }

    @Test(
        "kudos set to daily gather into one email at 08:00 local, counted and escaped",
        arguments: StorageBackend.available)
    func dailyDigest(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountAge = 0 }) { api in
            let (ana, anaID, run) = try await NotificationDeliveryTests.ana(api, devices: [])
            _ = try await api.call(
                .put, "/api/v1/notifications/preferences", token: ana, json: #"{"types":{"kudos":"daily"}}"#)
            for name in ["bea", "cyd"] {
                let token = try await api.user(name)
                if name == "bea" {
                    _ = try await api.call(.patch, "/api/v1/me", token: token, json: #"{"display_name":"Bea <b>"}"#)
                }
                _ = try await api.call(.post, "/api/v1/posts/\(run.id)/kudos", token: token)
            }
            let transport = RecordingTransport()
            let runner = DeliveryRunner(
                storage: api.storage, clock: api.clock, transport: transport, logger: StorageBackend.logger)
            #expect(try await runner.runDue() == 0)
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let morning = utc.nextDate(
                after: api.clock.now, matching: DateComponents(hour: 8, minute: 0), matchingPolicy: .nextTime)!
            Self.moveClock(api, to: morning)
            // One job, the email: Ana has no phone or browser to push to, so no push was planned.
            #expect(try await runner.runDue() == 1)
            let sent = try #require(transport.sent.first)
            #expect(transport.sent.count == 1)
            #expect(sent.target == .email(address: "ana@example.com"))
            #expect(sent.message.subject == "Your Spotter digest: 2 kudos")
            #expect(sent.message.text.contains("cyd and Bea <b> gave kudos to your Morning Run"))
            #expect(sent.message.html.contains("<p>cyd and Bea &lt;b&gt; gave kudos to your Morning Run</p>"))
            #expect(try await api.storage.deliveries.pendingJobs(of: anaID).isEmpty)
        }
    }

    @Test(
        "a streak longer than the sweep's first read of history is counted whole", arguments: StorageBackend.available)
    func longStreak(backend: StorageBackend) async throws {
        try await TestApp.run(
            backend,
            configure: {
                $0.postRules.newAccountAge = 0
                $0.tokenLifetimes.accessToken = 14 * 86_400  // the test moves the clock days ahead
            }
        ) { api in
            let (ana, anaID, _) = try await NotificationDeliveryTests.ana(api)
            _ = try await api.call(.patch, "/api/v1/me", token: ana, json: #"{"time_zone":"\#(Self.zone)"}"#)
            let evening = Self.next(weekday: 3, hour: 18, after: api.clock.now + 86_400)
            // A workout every morning for the 50 days before this Tuesday, none yet today.
            let days = ReminderSweep.historyWindowDays + 15
            for day in 1...days {
                let start = evening - Double(day) * 86_400 - 8 * 3600
                let workout = WorkoutRecord(
                    title: "Day \(day)", type: .strength, startTime: start, endTime: start + 3600,
                    exercises: [ExerciseEntry(name: "Squat", sets: [WorkoutSet(weightKg: 100, reps: 5)])])
                try await api.storage.posts.insert(
                    PostRecord(
                        id: .generate(at: start), authorID: anaID, kind: .workout, text: "", visibility: .public,
                        workout: workout, records: [], hashtags: [], mentions: [], textHash: "day-\(day)",
                        inGlobal: true, performedAt: start, createdAt: start))
            }
            Self.moveClock(api, to: evening + 60)
            let notifier = Notifier(storage: api.storage, clock: api.clock, events: nil, logger: StorageBackend.logger)
            let sweep = ReminderSweep(storage: api.storage, notifier: notifier)
            #expect(try await sweep.run(since: evening - 60, now: api.clock.now) == 1)
            let inbox = try await NotificationsAPITests.inbox(api, ana)
            #expect(
                inbox.filter { $0.type == .streakAtRisk }.map(\.text) == [
                    "Your \(days)-day streak ends tonight. A short workout keeps it going."
                ])
        }
    }
}
