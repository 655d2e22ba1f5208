import Foundation
import Logging
import SpotterModels

/// A message on its way to one address: a push's lines, or an email.
public struct OutgoingMessage: Sendable, Equatable {
    public var title: String
    public var body: String
    /// The app icon's badge (unread count), when the person wants it.
    public var badge: Int?
    /// Pushes with the same id replace each other on the device: a group's newer batch replaces the older.
    public var collapseID: String?
    /// An email's subject, plain text and HTML (digests list every item).
    public var subject: String
    public var text: String
    public var html: String
    /// What the app reads beside the text: the route's ids and the actions' category, or that this is a
    /// silent refresh (`NotificationPush.Kind.refresh`, pushed to phones only: browsers must show every push).
    public var push: NotificationPush

    public init(
        title: String, body: String, badge: Int?, collapseID: String?, subject: String, text: String, html: String,
        push: NotificationPush = NotificationPush()
    ) {
        self.push = push
        self.title = title
        self.body = body
        self.badge = badge
        self.collapseID = collapseID
        self.subject = subject
        self.text = text
        self.html = html
    }
}

/// The port to the outside world's delivery services (APNs, Web Push, SMTP); the server adapts it.
public protocol DeliveryTransport: Sendable {
    /// Whether this kind of target can be delivered to here (a server without APNs keys cannot push to iPhones).
    func supports(_ target: DeliveryTarget) -> Bool
    func deliver(_ message: OutgoingMessage, to target: DeliveryTarget) async -> DeliveryOutcome
}

/// Drains the durable job queue: claims due jobs, composes each message from what its notifications still
/// may say, sends it to every address of the channel, records every attempt, prunes dead addresses and
/// retries with backoff.
///
/// A job reached an address at most once: addresses that took it are recorded before the job is retried,
/// and a job is claimed by one runner at a time (a lease; on PostgreSQL `FOR UPDATE SKIP LOCKED`).
public struct DeliveryRunner: Sendable {
    public static let maxAttempts = 5
    /// How long a claimed job is ours; a node that dies holding it frees it when this runs out.
    public static let lease: TimeInterval = 120

    let storage: any SpotterStorage
    let clock: any WallClock
    let transport: any DeliveryTransport
    let logger: Logger
    let inbox: NotificationService

    /// `inbox` is the composition root's; tests that pass none get one that announces nothing.
    public init(
        storage: any SpotterStorage, clock: any WallClock, transport: any DeliveryTransport, logger: Logger,
        inbox: NotificationService? = nil
    ) {
        self.storage = storage
        self.clock = clock
        self.transport = transport
        self.logger = logger
        self.inbox = inbox ?? NotificationService(storage: storage, clock: clock)
    }

    /// Runs every job due now; returns how many it ran.
    @discardableResult
    public func runDue(limit: Int = 50) async throws -> Int {
        let now = clock.now
        let jobs = try await storage.deliveries.claimDue(
            now: now, leaseUntil: now.addingTimeInterval(Self.lease), limit: limit)
        for job in jobs { await run(job) }
        return jobs.count
    }

    /// Backoff after a failed attempt: 30 s, 2 min, 8 min, 32 min.
    public static func backoff(afterAttempts attempts: Int) -> TimeInterval {
        30 * pow(4, Double(max(0, attempts - 1)))
    }

    private func run(_ job: DeliveryJob) async {
        do {
            try await attempt(job)
        } catch {
            logger.warning("delivery job failed", metadata: ["job": "\(job.id)", "error": "\(error)"])
            try? await storage.deliveries.retry(
                job.id, at: clock.now.addingTimeInterval(Self.backoff(afterAttempts: job.attempts + 1)),
                error: "\(error)")
        }
    }

    private func attempt(_ job: DeliveryJob) async throws {
        let queue = storage.deliveries
        guard let recipient = try await storage.accounts.find(id: job.recipientID), recipient.suspendedAt == nil
        else { return try await queue.finish(job.id, sent: false, at: clock.now) }
        let done = try await queue.deliveredTargets(of: job.id)
        // Addresses first: composing reads every notification of the job again, for nobody if there is no one
        // left to send it to (a phone removed since the job was planned).
        let pending = try await targets(job, recipient).filter { !done.contains($0.key) }
        guard !pending.isEmpty else { return try await queue.finish(job.id, sent: !done.isEmpty, at: clock.now) }
        // In the app (a live socket on some node), the person sees the notification arrive there: a push would
        // only repeat it. The inbox keeps it; silent refreshes and email still go.
        if job.channel == .push, !job.isRefresh, try await storage.pushAddresses.isInApp(recipient.id, at: clock.now) {
            logger.debug("push skipped: in the app", metadata: ["job": "\(job.id)"])
            return try await queue.finish(job.id, sent: false, at: clock.now)
        }
        guard let message = try await compose(job, recipient: recipient) else {
            return try await queue.finish(job.id, sent: false, at: clock.now)
        }
        var delivered = !done.isEmpty
        var retryAfter: TimeInterval?
        for target in pending {
            let outcome = await transport.deliver(message, to: target)
            let status: DeliveryAttempt.Status
            var detail = ""
            switch outcome {
            case .delivered:
                status = .delivered
                delivered = true
            case .gone(let reason):
                (status, detail) = (.gone, reason)
                try await storage.pushAddresses.prune(target)
            case .retry(let reason, let after):
                (status, detail) = (.retry, reason)
                retryAfter = max(retryAfter ?? 0, after ?? Self.backoff(afterAttempts: job.attempts + 1))
            case .failed(let reason):
                (status, detail) = (.failed, reason)
            }
            try await queue.recordAttempt(
                DeliveryAttempt(jobID: job.id, target: target.key, status: status, detail: detail, at: clock.now))
        }
        if let retryAfter, job.attempts + 1 < Self.maxAttempts {
            try await queue.retry(
                job.id, at: clock.now.addingTimeInterval(retryAfter), error: "a target asked to retry")
        } else {
            try await queue.finish(job.id, sent: delivered, at: clock.now)
        }
    }

    private func targets(_ job: DeliveryJob, _ recipient: AccountRecord) async throws -> [DeliveryTarget] {
        let addresses = storage.pushAddresses
        var targets: [DeliveryTarget]
        switch job.channel {
        case .push:
            targets = try await addresses.devices(of: recipient.id).map { .apns(token: $0) }
            // A browser shows every push it is given (an invisible one costs the site its permission), so a
            // silent refresh goes to phones only.
            if !job.isRefresh {
                targets += try await addresses.webPushSubscriptions(of: recipient.id).map { .webPush($0) }
            }
        case .email:
            targets = recipient.email.map { [.email(address: $0)] } ?? []
        }
        return targets.filter(transport.supports)
    }

    /// The message for a job, from the notifications in it the recipient may still hear of; `nil` when none.
    func compose(_ job: DeliveryJob, recipient: AccountRecord) async throws -> OutgoingMessage? {
        if job.isRefresh {
            let unread = try await storage.notifications.counts(of: recipient.id).unread
            return OutgoingMessage(
                title: "", body: "", badge: nil, collapseID: nil, subject: "", text: "", html: "",
                push: NotificationPush(kind: .refresh, unread: unread))
        }
        var items: [NotificationRecord] = []
        for id in job.notificationIDs {
            if let record = try await storage.notifications.notification(id),
                try await NotificationAudience.mayHear(
                    record.recipientID, from: record.actorID, about: record.postID, storage: storage)
            {
                items.append(record)
            }
        }
        items.sort { $0.id.rawValue.uuidString > $1.id.rawValue.uuidString }
        guard let latest = items.first else { return nil }
        let preferences = try await storage.notifications.preferences(of: recipient.id) ?? NotificationPreferences()
        let badge = preferences.badge ? try await storage.notifications.counts(of: recipient.id).unread : nil
        var lines: [String] = []
        for group in Dictionary(grouping: items, by: \.groupKey).values.sorted(by: { $0[0].createdAt > $1[0].createdAt }
        ) {
            lines.append(try await inbox.sentence(for: group))
        }
        let content: NotificationText.Content
        let subject: String
        // A digest spans rows, so it opens the inbox; anything else opens its row's subject.
        var push = NotificationPush(kind: .alert, unread: badge)
        if job.batchKey?.hasPrefix("digest-") == true {
            let summary = NotificationText.digestSummary(Dictionary(grouping: items, by: \.type).mapValues(\.count))
            // A digest of the person's own reminders (a weekly summary) says them; others are counted.
            let ownOnly = items.allSatisfy { $0.actorID == nil }
            content = NotificationText.Content(
                title: "Your Spotter digest", body: ownOnly ? lines.joined(separator: "\n") : summary)
            subject = "Your Spotter digest: \(summary)"
        } else {
            let actor = try await latest.actorID.asyncMap { try await storage.accounts.find(id: $0) } ?? nil
            var mutual = false
            if let actor = latest.actorID {
                let relationship = try await storage.graph.relationship(of: recipient.id, with: actor)
                mutual = relationship.following == .following && relationship.followedBy
            }
            content = NotificationText.sanitized(
                lines.joined(separator: "\n"), type: latest.type, recipientPrivacy: recipient.profile.privacy,
                actorName: actor?.displayName, mutual: mutual)
            subject = content.body.components(separatedBy: "\n").first ?? content.body
            push = NotificationPush(
                kind: .alert, type: latest.type, groupKey: latest.groupKey, notificationID: latest.id,
                postID: latest.postID, commentID: latest.commentID,
                groupID: NotificationGroupKey.group(in: latest.groupKey), actorUsername: actor?.username,
                actorID: latest.actorID, unread: badge)
        }
        // Email carries digests and security alerts, whose lines are the recipient's own business; a digest
        // to a non-public account still names nobody.
        let emailLines = recipient.profile.privacy == .public || latest.actorID == nil ? lines : [content.body]
        return OutgoingMessage(
            title: content.title, body: content.body, badge: badge, collapseID: String(latest.groupKey.prefix(64)),
            subject: subject, text: emailLines.joined(separator: "\n") + "\n\n— Spotter\n",
            html: "<p>" + emailLines.map(Self.escapeHTML).joined(separator: "</p>\n<p>") + "</p>", push: push)
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
