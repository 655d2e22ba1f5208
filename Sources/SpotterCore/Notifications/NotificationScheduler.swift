import Foundation
import SpotterModels

/// Decides when, and merged with what, a notification is pushed and emailed: the FameFit seed's rules, as
/// a pure function of the person's preferences, what they were sent this hour, and the time.
///
/// - Always-immediate types (mentions, follow requests, security) go at once, alone; `enabled` and `immediate`
///   ones at once too, below the hourly cap.
/// - `batched` types wait for the batching window and go as one merged message per group ("Ana and 2 others
///   gave kudos to your Morning Run").
/// - Past the hourly cap, everything but always-immediate types is batched.
/// - In quiet hours, push and email wait for the end of the window, merged per group; security alerts and
///   the types the person allowed pass. The inbox records at once regardless.
/// - `daily` and `weekly` types gather into a digest at the person's local morning (Mondays for weekly).
/// - Email carries digests and security alerts; everything else is a push.
public struct NotificationScheduler: Sendable {
    /// Local time of the morning digest.
    public static let digestMinute = 8 * 60

    /// When one channel's message goes, and what it merges with: notifications of one recipient with the same
    /// `batchKey` travel in one message.
    public struct ChannelPlan: Sendable, Equatable {
        public var runAt: Date
        public var batchKey: String?

        public init(runAt: Date, batchKey: String?) {
            self.runAt = runAt
            self.batchKey = batchKey
        }
    }

    public struct Decision: Sendable, Equatable {
        /// Recorded in the inbox (and sent to live sockets).
        public var inApp: Bool
        public var push: ChannelPlan?
        public var email: ChannelPlan?

        public static let nothing = Decision(inApp: false, push: nil, email: nil)
    }

    public init() {}

    /// - Parameters:
    ///   - groupKey: the notification's inbox group; batches merge by it.
    ///   - profileTimeZone: used when quiet hours name no time zone of their own.
    ///   - pushesThisHour: pushes sent to the person in the last hour, for the cap.
    public func decide(
        type: NotificationType, groupKey: String, preferences: NotificationPreferences, profileTimeZone: String,
        pushesThisHour: Int, now: Date
    ) -> Decision {
        let setting = preferences.setting(for: type)
        guard setting != .disabled else { return .nothing }
        let local = LocalTime(preferences.quietHours.timeZone ?? profileTimeZone)
        var plan: ChannelPlan
        switch setting {
        case .daily, .weekly:
            let morning =
                setting == .daily
                ? local.next(minuteOfDay: Self.digestMinute, after: now)
                : local.nextMonday(minuteOfDay: Self.digestMinute, after: now)
            plan = ChannelPlan(runAt: morning, batchKey: "digest-\(setting.rawValue)-\(local.day(of: morning))")
        case .batched where !type.isAlwaysImmediate:
            plan = batched(groupKey, preferences, now)
        case .enabled, .immediate:
            // The cap holds for every type but the always-immediate ones, whichever of the two is chosen (the
            // seed's `shouldBatch`: priority first, then the cap, then the type's setting).
            let capped = !type.isAlwaysImmediate && pushesThisHour >= preferences.maxPerHour
            plan = capped ? batched(groupKey, preferences, now) : ChannelPlan(runAt: now, batchKey: nil)
        default:
            plan = ChannelPlan(runAt: now, batchKey: nil)
        }
        plan = holdingForQuietHours(plan, type: type, groupKey: groupKey, preferences: preferences, local: local)
        let isDigest = setting == .daily || setting == .weekly
        let wantsEmail = isDigest || type.isSecurity
        return Decision(
            inApp: preferences.inApp || type.isSecurity,
            push: preferences.push ? plan : nil,
            email: preferences.email && wantsEmail ? plan : nil)
    }

    private func batched(_ groupKey: String, _ preferences: NotificationPreferences, _ now: Date) -> ChannelPlan {
        let window = TimeInterval(max(1, preferences.batchingWindowMinutes) * 60)
        return ChannelPlan(runAt: now.addingTimeInterval(window), batchKey: "batch-\(groupKey)")
    }

    /// Moves a message due inside quiet hours to the window's end. What was due at once is merged per group
    /// there, so a night of kudos wakes the person with one message, not twenty.
    private func holdingForQuietHours(
        _ plan: ChannelPlan, type: NotificationType, groupKey: String, preferences: NotificationPreferences,
        local: LocalTime
    ) -> ChannelPlan {
        let quiet = preferences.quietHours
        guard quiet.enabled, !type.isSecurity, !quiet.allowedTypes.contains(type),
            let start = LocalTime.minutes(of: quiet.start), let end = LocalTime.minutes(of: quiet.end),
            local.isWithin(plan.runAt, start: start, end: end)
        else { return plan }
        let release = local.next(minuteOfDay: end, after: plan.runAt)
        return ChannelPlan(runAt: release, batchKey: plan.batchKey ?? "held-\(groupKey)")
    }
}
