import Foundation
import SpotterModels

/// `/api/v1/notifications/…`: the signed-in person's inbox, its badge counts and marks, their notification
/// preferences and quiet hours, and the phones that receive their pushes (issue 40). `NotificationsViewModel`
/// is the screen built on these.
extension SpotterClient {
    /// One page of the inbox, newest group first, as the server groups it ("Ana and 2 others gave kudos…").
    public func notifications(cursor: String? = nil) async throws -> Page<NotificationGroup> {
        try await call(
            Call(method: "GET", path: "/api/v1/notifications", query: Self.query(["cursor": cursor])))
    }

    /// The badge: unread and unseen, each stopping at `NotificationCounts.limit`.
    public func notificationCounts() async throws -> NotificationCounts {
        try await call(Call(method: "GET", path: "/api/v1/notifications/counts"))
    }

    /// The inbox was opened: everything up to `upTo` (everything when nil) is seen. The counts after it.
    @discardableResult
    public func markNotificationsSeen(
        upTo: NotificationID? = nil, idempotencyKey: String? = nil
    ) async throws -> NotificationCounts {
        try await call(
            .change(
                "POST", "/api/v1/notifications/seen",
                body: try Self.encoder.encode(MarkNotificationsRequest(upTo: upTo)), key: idempotencyKey))
    }

    /// Everything up to `upTo` (everything when nil) is read. The counts after it.
    @discardableResult
    public func markNotificationsRead(
        upTo: NotificationID? = nil, idempotencyKey: String? = nil
    ) async throws -> NotificationCounts {
        try await call(
            .change(
                "POST", "/api/v1/notifications/read",
                body: try Self.encoder.encode(MarkNotificationsRequest(upTo: upTo)), key: idempotencyKey))
    }

    /// One inbox row is read (it was tapped). The counts after it.
    @discardableResult
    public func markNotificationGroupRead(
        _ groupKey: String, idempotencyKey: String? = nil
    ) async throws
        -> NotificationCounts
    {
        try await call(
            .change("POST", "/api/v1/notifications/groups/\(groupKey.pathEscaped)/read", key: idempotencyKey))
    }

    /// One inbox row leaves the inbox (swiped away). The counts after it.
    @discardableResult
    public func archiveNotificationGroup(
        _ groupKey: String, idempotencyKey: String? = nil
    ) async throws
        -> NotificationCounts
    {
        try await call(
            .change("POST", "/api/v1/notifications/groups/\(groupKey.pathEscaped)/archive", key: idempotencyKey))
    }

    /// What reaches the person, type by type and channel by channel, with quiet hours and the hourly cap.
    public func notificationPreferences() async throws -> NotificationPreferences {
        try await call(Call(method: "GET", path: "/api/v1/notifications/preferences"))
    }

    /// Replaces the preferences; the server's copy after it (it states every type, defaults included).
    @discardableResult
    public func updateNotificationPreferences(
        _ preferences: NotificationPreferences, idempotencyKey: String? = nil
    ) async throws -> NotificationPreferences {
        try await call(
            .change(
                "PUT", "/api/v1/notifications/preferences", body: try Self.encoder.encode(preferences),
                key: idempotencyKey))
    }

    /// Registers this iPhone's APNs device token (hex, as `application(_:didRegisterForRemoteNotifications…)`
    /// gives it) so pushes reach it; registering it again is harmless.
    public func registerPushDevice(token: String, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change(
                "POST", "/api/v1/notifications/devices",
                body: try Self.encoder.encode(DeviceRegistration(token: token)),
                key: idempotencyKey))
    }

    /// Forgets this iPhone's APNs token (pushes switched off here, or signing out). The token goes in the body,
    /// never the path, so no access log holds it.
    public func removePushDevice(token: String, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change(
                "DELETE", "/api/v1/notifications/devices",
                body: try Self.encoder.encode(DeviceRegistration(token: token)), key: idempotencyKey))
    }
}
