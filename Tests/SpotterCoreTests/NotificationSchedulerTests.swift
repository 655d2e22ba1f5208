import Foundation
import SpotterCore
import SpotterModels
import Testing

/// The scheduling rules, at hand-picked instants: no clock runs, no database.
@Suite("Notification scheduler")
struct NotificationSchedulerTests {
    let scheduler = NotificationScheduler()

    /// An instant given as local wall-clock time in `zone`.
    static func at(_ text: String, _ zone: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    func decide(
        _ type: NotificationType, _ preferences: NotificationPreferences = NotificationPreferences(),
        zone: String = "UTC", sent: Int = 0, at now: Date
    ) -> NotificationScheduler.Decision {
        scheduler.decide(
            type: type, groupKey: "group-1", preferences: preferences, profileTimeZone: zone, pushesThisHour: sent,
            now: now)
    }

    @Test("mentions, follow requests and security alerts go at once and alone, even when set to batched")
    func immediate() {
        let now = Self.at("2026-11-23 12:00", "UTC")
        var preferences = NotificationPreferences(types: [.mention: .batched])
        preferences.maxPerHour = 1
        for type in [NotificationType.mention, .followRequest, .securityNewDevice] {
            let decision = decide(type, preferences, sent: 50, at: now)
            #expect(decision.push == .init(runAt: now, batchKey: nil), "\(type)")
            #expect(decision.inApp)
        }
    }

    @Test("batched types wait for the window and share a key per group")
    func batchWindow() {
        let now = Self.at("2026-11-23 12:00", "UTC")
        let decision = decide(.kudos, NotificationPreferences(batchingWindowMinutes: 20), at: now)
        #expect(decision.push == .init(runAt: now + 20 * 60, batchKey: "batch-group-1"))
        #expect(decision.email == nil, "kudos are never emailed one by one")
    }

    @Test("past the hourly cap, enabled types are batched; below it they go at once")
    func hourlyCap() {
        let now = Self.at("2026-11-23 12:00", "UTC")
        let preferences = NotificationPreferences(maxPerHour: 3)
        #expect(decide(.follow, preferences, sent: 2, at: now).push == .init(runAt: now, batchKey: nil))
        #expect(
            decide(.follow, preferences, sent: 3, at: now).push
                == .init(runAt: now + 15 * 60, batchKey: "batch-group-1"))
        #expect(decide(.mention, preferences, sent: 3, at: now).push == .init(runAt: now, batchKey: nil))
    }

    @Test("past the hourly cap, comments set to right away wait too; mentions and follow requests never do")
    func hourlyCapHoldsImmediate() {
        // Given comments and replies at their default (immediate), a cap of 3, and 3 pushes this hour
        let now = Self.at("2026-11-23 12:00", "UTC")
        let preferences = NotificationPreferences(maxPerHour: 3)
        #expect(preferences.setting(for: .comment) == .immediate)
        // Then a comment below the cap goes at once, and past it waits for the window (the seed's shouldBatch:
        // priority first, then the cap, then the setting)
        #expect(decide(.comment, preferences, sent: 2, at: now).push == .init(runAt: now, batchKey: nil))
        #expect(
            decide(.comment, preferences, sent: 3, at: now).push
                == .init(runAt: now + 15 * 60, batchKey: "batch-group-1"))
        #expect(decide(.reply, preferences, sent: 3, at: now).push?.runAt == now + 15 * 60)
        // And the always-immediate types still go at once, alone
        for type in [NotificationType.mention, .followRequest, .securityNewDevice] {
            #expect(decide(type, preferences, sent: 3, at: now).push == .init(runAt: now, batchKey: nil), "\(type)")
        }
        // And the settings page offers what differs: for a comment, "immediate" is "enabled" by another name
        #expect(!NotificationType.comment.distinctSettings.contains(.immediate))
        #expect(NotificationType.comment.distinct(.immediate) == .enabled)
        #expect(NotificationType.mention.distinct(.enabled) == .immediate)
    }

    @Test("quiet hours across midnight hold push until their end in the person's zone; the inbox records at once")
    func quietHoursAcrossMidnight() {
        let zone = "America/New_York"
        let preferences = NotificationPreferences(
            quietHours: QuietHours(enabled: true, start: "22:00", end: "07:00", timeZone: zone))
        let lateEvening = Self.at("2026-11-23 23:30", zone)
        let held = decide(.comment, preferences, at: lateEvening)
        #expect(held.push == .init(runAt: Self.at("2026-11-24 07:00", zone), batchKey: "held-group-1"))
        #expect(held.inApp)
        let earlyMorning = Self.at("2026-11-24 06:59", zone)
        #expect(decide(.comment, preferences, at: earlyMorning).push?.runAt == Self.at("2026-11-24 07:00", zone))
        let end = Self.at("2026-11-24 07:00", zone)
        #expect(decide(.comment, preferences, at: end).push == .init(runAt: end, batchKey: nil))
        let evening = Self.at("2026-11-23 21:59", zone)
        #expect(decide(.comment, preferences, at: evening).push == .init(runAt: evening, batchKey: nil))
    }

    @Test("quiet hours use the profile's zone when they name none; a batch ending inside them waits too")
    func quietHoursZoneAndBatches() {
        let zone = "Asia/Tokyo"
        let preferences = NotificationPreferences(quietHours: QuietHours(enabled: true, start: "23:00", end: "06:30"))
        let now = Self.at("2026-11-23 22:50", zone)
        let decision = decide(.kudos, preferences, zone: zone, at: now)
        #expect(decision.push == .init(runAt: Self.at("2026-11-24 06:30", zone), batchKey: "batch-group-1"))
    }

    @Test("security alerts and allowed types pass quiet hours")
    func quietHoursBypass() {
        let preferences = NotificationPreferences(
            quietHours: QuietHours(enabled: true, start: "00:00", end: "23:59", allowedTypes: [.follow]))
        let now = Self.at("2026-11-23 12:00", "UTC")
        #expect(decide(.securityPasswordChanged, preferences, at: now).push?.runAt == now)
        #expect(decide(.securityPasswordChanged, preferences, at: now).email?.runAt == now, "security is emailed too")
        #expect(decide(.follow, preferences, at: now).push?.runAt == now)
        #expect(decide(.comment, preferences, at: now).push?.runAt != now)
    }

    @Test("daily types go in a digest at the next local morning, weekly ones on Monday morning")
    func digests() {
        let zone = "Europe/Berlin"
        let preferences = NotificationPreferences(types: [.kudos: .daily])
        let afternoon = Self.at("2026-11-25 15:00", zone)  // a Wednesday
        let daily = decide(.kudos, preferences, zone: zone, at: afternoon)
        #expect(daily.push == .init(runAt: Self.at("2026-11-26 08:00", zone), batchKey: "digest-daily-2026-11-26"))
        #expect(daily.email == daily.push)
        let dawn = Self.at("2026-11-25 07:00", zone)
        #expect(decide(.kudos, preferences, zone: zone, at: dawn).push?.runAt == Self.at("2026-11-25 08:00", zone))
        let weekly = decide(.weeklySummary, zone: zone, at: afternoon)
        #expect(weekly.push == .init(runAt: Self.at("2026-11-30 08:00", zone), batchKey: "digest-weekly-2026-11-30"))
    }

    @Test("disabled types and switched-off channels send nothing there")
    func switches() {
        let now = Self.at("2026-11-23 12:00", "UTC")
        #expect(decide(.kudos, NotificationPreferences(types: [.kudos: .disabled]), at: now) == .nothing)
        let quiet = decide(.comment, NotificationPreferences(push: false, inApp: false), at: now)
        #expect(quiet.push == nil && !quiet.inApp)
        #expect(
            decide(.securityNewDevice, NotificationPreferences(inApp: false), at: now).inApp, "security always records")
    }

    @Test("merged text names the latest people and counts the rest")
    func mergedText() {
        let who = NotificationText.people(["Ana", "Bea", "Cy"], total: 3)
        #expect(who == "Ana and 2 others")
        #expect(NotificationText.people(["Ana", "Bea"], total: 2) == "Ana and Bea")
        #expect(NotificationText.people(["Ana"], total: 2) == "Ana and 1 other")
        let text = NotificationText.sentence(
            type: .kudos, who: who, count: 3, subject: .quotable(title: "Morning Run"), detail: "")
        #expect(text == "Ana and 2 others gave kudos to your Morning Run")
        #expect(
            NotificationText.digestSummary([.kudos: 3, .follow: 2, .comment: 1])
                == "3 kudos, 1 comment and 2 new followers")
    }

    @Test("push text follows the recipient's privacy: full, the sender's name to a mutual follower, or generic")
    func privacy() {
        let sentence = "Ana commented on your Morning Run: “Strong!”"
        let full = NotificationText.sanitized(
            sentence, type: .comment, recipientPrivacy: .public, actorName: "Ana", mutual: false)
        #expect(full.body == sentence)
        let mutual = NotificationText.sanitized(
            sentence, type: .comment, recipientPrivacy: .followers, actorName: "Ana", mutual: true)
        #expect(mutual.title == "Ana" && !mutual.body.contains("Strong"))
        let stranger = NotificationText.sanitized(
            sentence, type: .comment, recipientPrivacy: .followers, actorName: "Ana", mutual: false)
        #expect(stranger == NotificationText.generic)
        let hidden = NotificationText.sanitized(
            sentence, type: .comment, recipientPrivacy: .private, actorName: "Ana", mutual: true)
        #expect(hidden == NotificationText.generic)
    }
}
