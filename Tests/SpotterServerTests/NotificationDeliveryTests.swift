import Foundation
import Logging
import ServiceLifecycle
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// The durable delivery queue: batches that survive a restart, at most once per address, retries, pruning.
@Suite("Notification delivery")
struct NotificationDeliveryTests {
    static let phone = String(repeating: "a1", count: 32)
    static let tablet = String(repeating: "b2", count: 32)

    static func runner(_ api: APIClient, _ transport: RecordingTransport) -> DeliveryRunner {
        DeliveryRunner(storage: api.storage, clock: api.clock, transport: transport, logger: StorageBackend.logger)
    }

    /// Ana with an iPhone and a workout; returns her token, id and the workout.
    static func ana(_ api: APIClient, devices: [String] = [phone]) async throws -> (String, UserID, Post) {
        let ana = try await api.signup("ana")
        for token in devices {
            _ = try await api.call(
                .post, "/api/v1/notifications/devices", token: ana.accessToken, body: DeviceRegistration(token: token))
        }
        let run = try await api.workout(
            ana.accessToken, "Morning Run", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: api.clock.now - 3600)
        return (ana.accessToken, ana.user.id, run)
    }

    @Test(
        "a restart in the middle of a batch loses nothing and sends nothing twice", arguments: StorageBackend.available)
    func restartMidBatch(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountAge = 0 }) { api in
            let (_, anaID, run) = try await Self.ana(api)
            for name in ["bea", "cyd"] {
                _ = try await api.call(.post, "/api/v1/posts/\(run.id)/kudos", token: try await api.user(name))
                api.clock.advance(by: 60)
            }
            let transport = RecordingTransport()
            // The node that took the kudos stops here; its successor finds the batch in the database.
            #expect(try await Self.runner(api, transport).runDue() == 0, "the window is still open")
            let pending = try await api.storage.deliveries.pendingJobs(of: anaID)
            #expect(pending.count == 1 && pending.first?.notificationIDs.count == 2)

            // A third kudos after the restart joins the same batch.
            _ = try await api.call(.post, "/api/v1/posts/\(run.id)/kudos", token: try await api.user("dan"))
            api.clock.advance(by: 15 * 60)
            // Two runners (two nodes, or a node and its restarted self) race for the due job.
            async let first = Self.runner(api, transport).runDue()
            async let second = Self.runner(api, transport).runDue()
            #expect(try await first + second == 1)
            #expect(transport.sent.count == 1)
            let push = try #require(transport.sent.first)
            #expect(push.target == .apns(token: Self.phone))
            #expect(push.message.body == "dan and 2 others gave kudos to your Morning Run")
            #expect(push.message.badge == 3)
            #expect(push.message.collapseID == "kudos-\(run.id)")
            #expect(try await api.storage.deliveries.pendingJobs(of: anaID).isEmpty)
            api.clock.advance(by: 3600)
            #expect(try await Self.runner(api, transport).runDue() == 0)
            #expect(transport.sent.count == 1)
        }
    }

    @Test(
        "a push is planned only for someone with somewhere to push it; a phone removed before it is due gets nothing",
        arguments: StorageBackend.available)
    func pushNeedsATarget(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountAge = 0 }) { api in
            let (ana, anaID, run) = try await Self.ana(api, devices: [])
            _ = try await api.call(.post, "/api/v1/posts/\(run.id)/kudos", token: try await api.user("bea"))
            #expect(try await api.storage.deliveries.pendingJobs(of: anaID).isEmpty, "no phone, no browser")
            let inbox = try await NotificationsAPITests.inbox(api, ana)
            #expect(inbox.map(\.type) == [.kudos], "the inbox has it all the same")

            let added = try await api.call(
                .post, "/api/v1/notifications/devices", token: ana, body: DeviceRegistration(token: Self.phone))
            #expect(added.status.code < 300)
            _ = try await api.call(.post, "/api/v1/posts/\(run.id)/kudos", token: try await api.user("cyd"))
            let pending = try await api.storage.deliveries.pendingJobs(of: anaID)
            #expect(pending.map(\.channel) == [.push] && pending.first?.notificationIDs.count == 1)

            // The phone goes before the batch is due: the job ends, unsent, and nothing is sent.
            let removed = try await api.call(.delete, "/api/v1/notifications/devices/\(Self.phone)", token: ana)
            #expect(removed.status.code < 300)
            api.clock.advance(by: 15 * 60)
            let transport = RecordingTransport()
            #expect(try await Self.runner(api, transport).runDue() == 1)
            #expect(transport.sent.isEmpty)
            #expect(try await api.storage.deliveries.pendingJobs(of: anaID).isEmpty)
        }
    }

    @Test(
        "a job that must retry sends only to the addresses it missed; a gone token is pruned",
        arguments: StorageBackend.available)
    func retriesAndPruning(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let (_, anaID, _) = try await Self.ana(api, devices: [Self.phone, Self.tablet])
            let transport = RecordingTransport()
            transport.script(.apns(token: Self.tablet), [.retry(reason: "503", after: nil)])
            let bea = try await api.user("bea")
            try await api.follow(bea, "ana")
            #expect(try await Self.runner(api, transport).runDue() == 1)
            #expect(transport.sent.map(\.target) == [.apns(token: Self.phone)])
            let job = try #require(try await api.storage.deliveries.pendingJobs(of: anaID).first)
            #expect(job.attempts == 1)

            api.clock.advance(by: DeliveryRunner.backoff(afterAttempts: 1))
            #expect(try await Self.runner(api, transport).runDue() == 1)
            #expect(transport.sent.map(\.target) == [.apns(token: Self.phone), .apns(token: Self.tablet)])
            let attempts = try await api.storage.deliveries.attempts(of: job.id)
            #expect(attempts.map(\.status) == [.delivered, .retry, .delivered])

            // The next push finds the phone's app uninstalled: the token is forgotten.
            transport.script(.apns(token: Self.phone), [.gone(reason: "Unregistered")])
            try await api.follow(try await api.user("cyd"), "ana")
            #expect(try await Self.runner(api, transport).runDue() == 1)
            #expect(try await api.storage.pushAddresses.devices(of: anaID) == [Self.tablet])
        }
    }

    @Test(
        "pushes wait for quiet hours to end and go out merged; the inbox has them at once",
        arguments: StorageBackend.available)
    func quietHours(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let (ana, anaID, _) = try await Self.ana(api)
            let now = api.clock.now
            let zone = TimeZone(identifier: "UTC")!
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let minute = calendar.component(.hour, from: now) * 60 + calendar.component(.minute, from: now)
            // Quiet from an hour ago until two hours from now.
            let start = (minute + 24 * 60 - 60) % (24 * 60)
            let end = (minute + 120) % (24 * 60)
            let clock = { (m: Int) in String(format: "%02d:%02d", m / 60, m % 60) }
            _ = try await api.call(
                .put, "/api/v1/notifications/preferences", token: ana,
                json:
                    #"{"quiet_hours":{"enabled":true,"start":"\#(clock(start))","end":"\#(clock(end))","time_zone":"UTC"}}"#
            )
            try await api.follow(try await api.user("bea"), "ana")
            try await api.follow(try await api.user("cyd"), "ana")
            #expect(try await NotificationsAPITests.counts(api, ana).unread == 2)
            let transport = RecordingTransport()
            api.clock.advance(by: 60 * 60)
            #expect(try await Self.runner(api, transport).runDue() == 0)
            api.clock.advance(by: 61 * 60)
            #expect(try await Self.runner(api, transport).runDue() == 1)
            #expect(transport.sent.map(\.message.body) == ["cyd and bea started following you"])
            #expect(try await api.storage.deliveries.pendingJobs(of: anaID).isEmpty)
        }
    }

    @Test(
        "push text follows the recipient's privacy setting; the inbox keeps the full text",
        arguments: StorageBackend.available)
    func privacy(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let (ana, _, run) = try await Self.ana(api)
            let bea = try await api.user("bea")
            try await api.follow(bea, "ana")
            let transport = RecordingTransport()
            #expect(try await Self.runner(api, transport).runDue() == 1, "the follow, while Ana is public")
            #expect(transport.sent.first?.message.body == "bea started following you")
            _ = try await api.call(.patch, "/api/v1/me", token: ana, json: #"{"privacy":"private"}"#)
            _ = try await api.call(
                .post, "/api/v1/posts/\(run.id)/comments", token: bea, body: CreateCommentRequest(text: "My secret PR"))
            #expect(try await Self.runner(api, transport).runDue() == 1)
            #expect(transport.sent.last?.message.body == NotificationText.generic.body)
            #expect(transport.sent.last?.message.title == "Spotter")
            #expect(try await NotificationsAPITests.inbox(api, ana).first?.text.contains("My secret PR") == true)
        }
    }
}
