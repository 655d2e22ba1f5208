import Foundation

/// What a notification is about (the FameFit seed's categories). Challenge and leaderboard types come later.
public enum NotificationType: String, Codable, Sendable, CaseIterable {
    case follow
    case followRequest = "follow_request"
    case kudos
    case comment
    case reply
    case mention
    case personalRecord = "personal_record"
    case streakAtRisk = "streak_at_risk"
    case weeklySummary = "weekly_summary"
    case securityNewDevice = "security_new_device"
    case securityPasswordChanged = "security_password_changed"
    /// An admin set my account's email.
    case securityEmailChanged = "security_email_changed"
    /// Someone posted in a group of mine (batched by default).
    case groupPost = "group_post"
    /// I was invited to a group by name.
    case groupInvitation = "group_invitation"
    /// Someone asks to join a group I run.
    case groupJoinRequest = "group_join_request"
    /// My request to join a group was accepted.
    case groupRequestAccepted = "group_request_accepted"
    /// I was removed from a group.
    case groupRemoved = "group_removed"
    /// I was banned from a group: removed, and kept from coming back.
    case groupBanned = "group_banned"
    /// Someone joined an encrypted group I run and waits for a device of an admin's to share the keys.
    case groupAwaitingKeys = "group_awaiting_keys"
    /// I was invited to look after a child of someone's household.
    case guardianInvitation = "guardian_invitation"
    /// Someone approved my request to follow them.
    case followRequestApproved = "follow_request_approved"

    /// Types that never wait for a batch or the hourly cap: someone is waiting on an answer, or it is about
    /// the safety of the account.
    public var isAlwaysImmediate: Bool {
        switch self {
        case .mention, .followRequest, .securityNewDevice, .securityPasswordChanged, .securityEmailChanged: true
        default: false
        }
    }

    /// Security alerts pass quiet hours and every switch but the channel's own.
    public var isSecurity: Bool {
        self == .securityNewDevice || self == .securityPasswordChanged || self == .securityEmailChanged
    }

    /// Whether a person may switch this type off. Follow requests always reach the inbox: someone waits for
    /// an answer, and a private account learns of the request there (its push can still wait for a digest).
    public var mayBeOff: Bool { self != .followRequest }

    /// The settings that do something different for this type, as a settings page offers them. An
    /// always-immediate type is never grouped, so `enabled` and `batched` would be `immediate` by other names;
    /// any other type waits past the hourly cap whether `enabled` or `immediate` (the seed's `shouldBatch`),
    /// so for it `immediate` is `enabled` by another name; a type that can't be off offers no `disabled`.
    public var distinctSettings: [NotificationSetting] {
        let settings: [NotificationSetting] =
            isAlwaysImmediate
            ? [.disabled, .immediate, .daily, .weekly] : [.disabled, .enabled, .batched, .daily, .weekly]
        return mayBeOff ? settings : settings.filter { $0 != .disabled }
    }

    /// `setting` as one of `distinctSettings`: what the server does with it for this type.
    public func distinct(_ setting: NotificationSetting) -> NotificationSetting {
        distinctSettings.contains(setting) ? setting : (isAlwaysImmediate ? .immediate : .enabled)
    }
}

/// How a person wants one type of notification (the FameFit seed's `NotificationSetting`).
public enum NotificationSetting: String, Codable, Sendable, CaseIterable {
    /// Never: not in the inbox, not pushed.
    case disabled
    /// Pushed at once, unless the hourly cap is reached (then batched).
    case enabled
    /// Gathered for the batching window, then one merged push: "Ana and 2 others gave kudos…".
    case batched
    /// Pushed at once, never gathered for the batching window. Past the hourly cap it waits like `enabled`,
    /// unless the type is always immediate (mentions, follow requests, security), as the seed's `shouldBatch`
    /// decides by the notification's priority before the cap.
    case immediate
    /// Gathered into a digest at the person's local morning.
    case daily
    /// Gathered into a digest on Monday at the person's local morning.
    case weekly
}

/// A nightly window in which push and email wait (the inbox still records), in the person's time zone.
public struct QuietHours: Codable, Sendable, Equatable {
    public var enabled: Bool
    /// `HH:mm`, 24-hour, local time. When `start` is after `end` the window spans midnight.
    public var start: String
    public var end: String
    /// An IANA time zone name; `nil` means the profile's time zone.
    public var timeZone: String?
    /// Types that may still be pushed during quiet hours (security alerts always may).
    public var allowedTypes: [NotificationType]

    public init(
        enabled: Bool = false, start: String = "22:00", end: String = "08:00", timeZone: String? = nil,
        allowedTypes: [NotificationType] = []
    ) {
        self.enabled = enabled
        self.start = start
        self.end = end
        self.timeZone = timeZone
        self.allowedTypes = allowedTypes
    }

    enum CodingKeys: String, CodingKey {
        case enabled, start, end
        case timeZone = "time_zone"
        case allowedTypes = "allowed_types"
    }

    /// Missing fields keep their defaults, so a client can send only what it changes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = QuietHours()
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? defaults.enabled
        start = try container.decodeIfPresent(String.self, forKey: .start) ?? defaults.start
        end = try container.decodeIfPresent(String.self, forKey: .end) ?? defaults.end
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        allowedTypes = try container.decodeIfPresent([NotificationType].self, forKey: .allowedTypes) ?? []
    }
}

/// `GET/PUT /api/v1/notifications/preferences`: master switches, a setting per type, quiet hours, the hourly
/// cap and the batching window. The defaults are the FameFit seed's.
public struct NotificationPreferences: Codable, Sendable, Equatable {
    public var push: Bool
    public var inApp: Bool
    public var email: Bool
    public var badge: Bool
    /// A setting for every type; types missing here use `NotificationPreferences.defaultSetting(for:)`.
    public var types: [NotificationType: NotificationSetting]
    public var quietHours: QuietHours
    /// Past this many pushes in an hour, everything but always-immediate types is batched.
    public var maxPerHour: Int
    public var batchingWindowMinutes: Int

    public init(
        push: Bool = true, inApp: Bool = true, email: Bool = true, badge: Bool = true,
        types: [NotificationType: NotificationSetting] = [:], quietHours: QuietHours = QuietHours(),
        maxPerHour: Int = 10, batchingWindowMinutes: Int = 15
    ) {
        self.push = push
        self.inApp = inApp
        self.email = email
        self.badge = badge
        self.types = types
        self.quietHours = quietHours
        self.maxPerHour = maxPerHour
        self.batchingWindowMinutes = batchingWindowMinutes
    }

    public static func defaultSetting(for type: NotificationType) -> NotificationSetting {
        switch type {
        case .follow, .personalRecord, .streakAtRisk: .enabled
        case .kudos: .batched
        case .comment, .reply, .mention, .followRequest, .securityNewDevice, .securityPasswordChanged: .immediate
        case .securityEmailChanged: .immediate
        case .groupPost: .batched
        case .groupInvitation, .groupJoinRequest, .groupRequestAccepted, .groupRemoved, .groupBanned,
            .groupAwaitingKeys, .guardianInvitation, .followRequestApproved:
            .enabled
        case .weeklySummary: .weekly
        }
    }

    /// The setting in force for `type`. An Off stored for a type that can't be off (before the server refused
    /// one) is not honoured: the type's default is.
    public func setting(for type: NotificationType) -> NotificationSetting {
        guard let setting = types[type], setting != .disabled || type.mayBeOff else {
            return Self.defaultSetting(for: type)
        }
        return setting
    }

    enum CodingKeys: String, CodingKey {
        case push
        case inApp = "in_app"
        case email, badge, types
        case quietHours = "quiet_hours"
        case maxPerHour = "max_per_hour"
        case batchingWindowMinutes = "batching_window_minutes"
    }

    /// Every field is optional on the wire: what is missing keeps its default (the service merges a `PUT`
    /// onto the stored preferences the same way). `types` is an object keyed by type name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = NotificationPreferences()
        push = try container.decodeIfPresent(Bool.self, forKey: .push) ?? defaults.push
        inApp = try container.decodeIfPresent(Bool.self, forKey: .inApp) ?? defaults.inApp
        email = try container.decodeIfPresent(Bool.self, forKey: .email) ?? defaults.email
        badge = try container.decodeIfPresent(Bool.self, forKey: .badge) ?? defaults.badge
        types = try Self.decodeTypes(container)
        quietHours = try container.decodeIfPresent(QuietHours.self, forKey: .quietHours) ?? defaults.quietHours
        maxPerHour = try container.decodeIfPresent(Int.self, forKey: .maxPerHour) ?? defaults.maxPerHour
        batchingWindowMinutes =
            try container.decodeIfPresent(Int.self, forKey: .batchingWindowMinutes) ?? defaults.batchingWindowMinutes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(push, forKey: .push)
        try container.encode(inApp, forKey: .inApp)
        try container.encode(email, forKey: .email)
        try container.encode(badge, forKey: .badge)
        // Every type is listed, with the setting in force, so a client never has to know the defaults.
        var all: [String: NotificationSetting] = [:]
        for type in NotificationType.allCases { all[type.rawValue] = setting(for: type) }
        try container.encode(all, forKey: .types)
        try container.encode(quietHours, forKey: .quietHours)
        try container.encode(maxPerHour, forKey: .maxPerHour)
        try container.encode(batchingWindowMinutes, forKey: .batchingWindowMinutes)
    }

    private static func decodeTypes(
        _ container: KeyedDecodingContainer<CodingKeys>
    ) throws -> [NotificationType: NotificationSetting] {
        guard let raw = try container.decodeIfPresent([String: NotificationSetting].self, forKey: .types) else {
            return [:]
        }
        var types: [NotificationType: NotificationSetting] = [:]
        for (name, setting) in raw {
            guard let type = NotificationType(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .types, in: container, debugDescription: "unknown notification type \(name)")
            }
            types[type] = setting
        }
        return types
    }
}
