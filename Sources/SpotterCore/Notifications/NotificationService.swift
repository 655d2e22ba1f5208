import Foundation
import SpotterModels

/// The inbox (Mastodon / Knock style: grouped, with unread and unseen counts, marks and archive), the
/// preferences, and the devices and browsers a person receives pushes on.
public struct NotificationService: Sendable {
    /// People named in a group's sample.
    public static let sampleSize = 3

    let storage: any SpotterStorage
    let clock: any WallClock
    let events: (any EventBus)?

    public init(storage: any SpotterStorage, clock: any WallClock, events: (any EventBus)? = nil) {
        self.storage = storage
        self.clock = clock
        self.events = events
    }

    // MARK: Inbox

    public func inbox(_ viewer: AccountRecord, page: PageRequest) async throws -> Page<NotificationGroup> {
        let before = page.cursor.map(NotificationID.init)
        let rows = try await storage.notifications.groups(of: viewer.id, before: before, limit: page.limit + 1)
        var groups: [NotificationGroup] = []
        for row in rows.prefix(page.limit) { groups.append(try await group(row, recipient: viewer.id)) }
        let next =
            rows.count > page.limit ? groups.last.map { PageRequest.encode($0.mostRecentNotificationID.rawValue) } : nil
        return Page(items: groups, nextCursor: next)
    }

    /// The inbox group a notification belongs to, as its recipient sees it now, and, `withCounts`, their
    /// counts with it; `nil` when it is gone (archived, or about someone or something the recipient may no
    /// longer see).
    ///
    /// The hub renders one for every in-app notification, so everything it needs comes in one read rather
    /// than a round trip for each part.
    public func group(
        of id: NotificationID, withCounts: Bool = true
    ) async throws -> (
        recipient: UserID, group: NotificationGroup, counts: NotificationCounts?
    )? {
        guard
            let found = try await storage.notifications.group(
                containing: id, limit: Self.membersRead, actors: Self.sampleSize * 2, withCounts: withCounts)
        else { return nil }
        let sample = Self.sample(of: found.members, accounts: found.actors)
        let text = Self.sentence(
            for: found.members.isEmpty ? [found.row.latest] : found.members, names: sample.actors.map(\.displayName),
            total: sample.total, post: found.post, group: try await postGroup(found.post))
        return (found.recipient, Self.group(found.row, sampleActors: sample.actors, text: text), found.counts)
    }

    /// Members read to name a group's people and count how many distinct ones there are.
    static let membersRead = 50

    private func group(_ row: NotificationGroupRow, recipient: UserID) async throws -> NotificationGroup {
        let members = try await storage.notifications.members(
            of: recipient, groupKey: row.groupKey, limit: Self.membersRead)
        let sample = try await sampleActors(of: members)
        let text = try await sentence(
            for: members.isEmpty ? [row.latest] : members, names: sample.actors.map(\.displayName), total: sample.total)
        return Self.group(row, sampleActors: sample.actors, text: text)
    }

    private static func group(
        _ row: NotificationGroupRow, sampleActors: [AuthorSummary], text: String
    ) -> NotificationGroup {
        NotificationGroup(
            groupKey: row.groupKey, type: row.latest.type, notificationsCount: row.count, sampleActors: sampleActors,
            latestAt: row.latest.createdAt, mostRecentNotificationID: row.latest.id, postID: row.latest.postID,
            commentID: row.latest.commentID, text: text, unread: row.unread,
            groupID: NotificationGroupKey.group(in: row.groupKey))
    }

    /// The first few distinct people behind notifications (newest first) and how many distinct people there are.
    func sampleActors(of members: [NotificationRecord]) async throws -> (actors: [AuthorSummary], total: Int) {
        // Read a few more than the sample in one go, in case some account is gone.
        let wanted = FoundNotificationGroup.actorsInOrder(of: members).prefix(Self.sampleSize * 2)
        return Self.sample(of: members, accounts: try await storage.accounts.find(ids: Array(wanted)))
    }

    /// `sampleActors` from accounts already read, kept in the members' newest-first order.
    static func sample(
        of members: [NotificationRecord], accounts: [AccountRecord]
    ) -> (actors: [AuthorSummary], total: Int) {
        let ordered = FoundNotificationGroup.actorsInOrder(of: members)
        let byID = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let actors = ordered.lazy.compactMap { byID[$0]?.summary }.prefix(sampleSize)
        return (Array(actors), ordered.count)
    }

    /// The full sentence for notifications of one group, newest first: "ana and 2 others gave kudos to …".
    func sentence(for members: [NotificationRecord]) async throws -> String {
        let sample = try await sampleActors(of: members)
        return try await sentence(for: members, names: sample.actors.map(\.displayName), total: sample.total)
    }

    private func sentence(for members: [NotificationRecord], names: [String], total: Int) async throws -> String {
        var post: PostRecord?
        if let postID = members.first?.postID { post = try await storage.posts.record(postID) }
        return Self.sentence(for: members, names: names, total: total, post: post, group: try await postGroup(post))
    }

    /// The group `post` was posted to, as it is now (its name, who may read it); read only for a group's post.
    private func postGroup(_ post: PostRecord?) async throws -> GroupRecord? {
        guard let id = post?.groupID else { return nil }
        return try await storage.groups.find(id)
    }

    /// The sentence from what was read already: `post` is the latest member's post, if it has one, and `group`
    /// the group it is in. What it may say of the post is `NotificationSubject`'s to decide.
    static func sentence(
        for members: [NotificationRecord], names: [String], total: Int, post: PostRecord?, group: GroupRecord?
    ) -> String {
        guard let latest = members.first else { return "" }
        return NotificationText.sentence(
            type: latest.type, who: NotificationText.people(names, total: total), count: members.count,
            subject: post.map { NotificationSubject.of($0, in: group) } ?? .quotable(title: nil), detail: latest.detail)
    }

    public func counts(_ viewer: AccountRecord) async throws -> NotificationCounts {
        try await storage.notifications.counts(of: viewer.id)
    }

    public func markSeen(_ viewer: AccountRecord, upTo: NotificationID?) async throws -> NotificationCounts {
        try await storage.notifications.markSeen(of: viewer.id, upTo: upTo, at: clock.now)
        return try await countsChanged(viewer.id)
    }

    public func markRead(_ viewer: AccountRecord, upTo: NotificationID?) async throws -> NotificationCounts {
        try await storage.notifications.markRead(of: viewer.id, upTo: upTo, groupKey: nil, at: clock.now)
        return try await countsChanged(viewer.id, badge: true)
    }

    public func markGroupRead(_ viewer: AccountRecord, groupKey: String) async throws -> NotificationCounts {
        try Self.checkGroupKey(groupKey)
        try await storage.notifications.markRead(of: viewer.id, upTo: nil, groupKey: groupKey, at: clock.now)
        return try await countsChanged(viewer.id, badge: true)
    }

    /// Opens a group as its recipient follows it from the inbox: marks it read and returns its newest
    /// notification and the people behind the group, for the page to go to; `nil` when the recipient has no
    /// such group they may still see.
    public func open(
        _ viewer: AccountRecord, groupKey: String
    ) async throws -> (latest: NotificationRecord, actors: [AuthorSummary], total: Int)? {
        try Self.checkGroupKey(groupKey)
        let members = try await storage.notifications.members(
            of: viewer.id, groupKey: groupKey, limit: Self.membersRead)
        guard let latest = members.first else { return nil }
        _ = try await markGroupRead(viewer, groupKey: groupKey)
        let sample = try await sampleActors(of: members)
        return (latest, sample.actors, sample.total)
    }

    public func archive(_ viewer: AccountRecord, groupKey: String) async throws -> NotificationCounts {
        try Self.checkGroupKey(groupKey)
        guard try await storage.notifications.archive(of: viewer.id, groupKey: groupKey, at: clock.now) else {
            throw SpotterError.notFound("No such notification group.")
        }
        return try await countsChanged(viewer.id, badge: true)
    }

    /// Group keys are made of ids and type names; anything else (a NUL byte, which PostgreSQL refuses in text,
    /// or a megabyte of path) names no group.
    private static func checkGroupKey(_ key: String) throws {
        guard key.count <= 200, key.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
            throw SpotterError.notFound("No such notification group.")
        }
    }

    /// Counts after a change, also sent to the person's other live sessions (the badge on every device). When
    /// the unread count may have changed (`badge`), their phones get a silent push a few seconds later too, so
    /// a phone not connected right now clears its badge and refreshes its inbox: marks in a burst (reading
    /// one row after another) share one push, and iOS's budget for silent pushes is not spent on each.
    private func countsChanged(_ user: UserID, badge: Bool = false) async throws -> NotificationCounts {
        await events?.publish(.notificationCountsChanged(user))
        if badge, try await !storage.pushAddresses.devices(of: user).isEmpty {
            try await storage.deliveries.scheduleRefresh(of: user, at: clock.now.addingTimeInterval(Self.refreshDelay))
        }
        return try await storage.notifications.counts(of: user)
    }

    /// How long a silent refresh waits for more marks to join it.
    public static let refreshDelay: TimeInterval = 5

    // MARK: Preferences

    public func preferences(_ viewer: AccountRecord) async throws -> NotificationPreferences {
        try await storage.notifications.preferences(of: viewer.id) ?? NotificationPreferences()
    }

    /// Replaces the preferences after checking every field; a bad one changes nothing.
    public func updatePreferences(
        _ viewer: AccountRecord, to preferences: NotificationPreferences
    ) async throws
        -> NotificationPreferences
    {
        var problems: [FieldError] = []
        let quiet = preferences.quietHours
        if LocalTime.minutes(of: quiet.start) == nil {
            problems.append(FieldError(field: "quiet_hours.start", detail: "must be a time as HH:mm"))
        }
        if LocalTime.minutes(of: quiet.end) == nil {
            problems.append(FieldError(field: "quiet_hours.end", detail: "must be a time as HH:mm"))
        }
        if let zone = quiet.timeZone, !AccountRules.isTimeZone(zone) {
            problems.append(FieldError(field: "quiet_hours.time_zone", detail: "must be an IANA time zone name"))
        }
        if !(1...1000).contains(preferences.maxPerHour) {
            problems.append(FieldError(field: "max_per_hour", detail: "must be 1 to 1000"))
        }
        if !(1...1440).contains(preferences.batchingWindowMinutes) {
            problems.append(FieldError(field: "batching_window_minutes", detail: "must be 1 to 1440 minutes"))
        }
        // An Off the notifier would not honour is refused rather than stored and ignored.
        for type in NotificationType.allCases where !type.mayBeOff && preferences.types[type] == .disabled {
            problems.append(
                FieldError(
                    field: "types.\(type.rawValue)",
                    detail: "can't be off: follow requests always reach your inbox, where you answer them"))
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        try await storage.notifications.savePreferences(preferences, of: viewer.id)
        return preferences
    }

    // MARK: Devices and browsers

    public func registerDevice(_ viewer: AccountRecord, _ registration: DeviceRegistration) async throws {
        let token = registration.token.lowercased()
        guard Self.isDeviceToken(token) else {
            throw SpotterError.invalid("token", "must be an APNs device token in hex")
        }
        try await storage.pushAddresses.addDevice(token, of: viewer.id, at: clock.now)
    }

    public func removeDevice(_ viewer: AccountRecord, token: String) async throws {
        _ = try TextInput.checked(token, field: "token")
        // What can't be a token was never registered: nothing to look for.
        guard Self.isDeviceToken(token), try await storage.pushAddresses.removeDevice(token.lowercased(), of: viewer.id)
        else {
            throw SpotterError.notFound("No such device.")
        }
    }

    public func registerWebPush(_ viewer: AccountRecord, _ registration: WebPushRegistration) async throws {
        var problems: [FieldError] = []
        if !Self.isPushEndpoint(registration.endpoint) {
            problems.append(FieldError(field: "endpoint", detail: "must be the push service's URL"))
        }
        if Data(base64URL: registration.keys.p256dh)?.count != 65 {
            problems.append(FieldError(field: "keys.p256dh", detail: "must be a P-256 public key, base64url"))
        }
        if Data(base64URL: registration.keys.auth)?.count != 16 {
            problems.append(FieldError(field: "keys.auth", detail: "must be a 16-byte secret, base64url"))
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        try await storage.pushAddresses.addWebPush(registration, of: viewer.id, at: clock.now)
    }

    public func removeWebPush(_ viewer: AccountRecord, endpoint: String) async throws {
        guard Self.isPushEndpoint(endpoint) else {
            throw SpotterError.invalid("endpoint", "must be the push service's URL")
        }
        guard try await storage.pushAddresses.removeWebPush(endpoint: endpoint, of: viewer.id) else {
            throw SpotterError.notFound("No such subscription.")
        }
    }

    static func isDeviceToken(_ token: String) -> Bool {
        // ASCII hex only, as the document's pattern says: `Character.isHexDigit` takes fullwidth digits too.
        (32...200).contains(token.utf8.count) && token.utf8.allSatisfy(isASCIIHexDigit)
    }

    private static func isASCIIHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }

    /// An http(s) URL of printable characters, as push services hand out, whose host is a name or address of
    /// letters, digits and `._~-` (the document's `PushEndpoint` pattern says the same).
    static func isPushEndpoint(_ endpoint: String) -> Bool {
        guard endpoint.count <= 2000,
            endpoint.unicodeScalars.allSatisfy({ $0.value > 0x20 && !(0x7F...0x9F).contains($0.value) }),
            let url = URL(string: endpoint), url.scheme == "https" || url.scheme == "http",
            let host = url.host(percentEncoded: true), !host.isEmpty,
            host.unicodeScalars.allSatisfy({ $0.isASCII && (Self.hostCharacters.contains($0)) })
        else { return false }
        return true
    }

    private static let hostCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._~-")
}

extension Data {
    /// Decodes base64url without padding, as Web Push keys travel.
    public init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
