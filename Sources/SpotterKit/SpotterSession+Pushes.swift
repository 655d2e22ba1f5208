import Foundation
import SpotterModels

/// What a background refresh did, for the completion handler iOS hands the app (`UIBackgroundFetchResult`).
public enum BackgroundRefreshResult: Sendable, Equatable {
    case newData
    case noData
    case failed
}

extension NotificationPush {
    /// A push from the `userInfo` iOS gives the app (`UNNotificationContent.userInfo`, or
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`'s); `nil` when it is not
    /// Spotter's.
    public init?(userInfo: [AnyHashable: Any]) {
        var strings: [String: String] = [:]
        for (key, value) in userInfo {
            if let key = key as? String, let value = value as? String { strings[key] = value }
        }
        self.init(customData: strings)
    }
}

/// Pushes, as an app hands them over (issue 40, item 2): a silent push refreshes what the screens show, and an
/// action chosen on a notification goes through the outbox, so it lands once even when the phone is offline
/// when the person taps it (it waits for the network like any other change).
///
/// ```swift
/// func application(_ app: UIApplication, didReceiveRemoteNotification info: [AnyHashable: Any]) async
///     -> UIBackgroundFetchResult {
///     guard let push = NotificationPush(userInfo: info) else { return .noData }
///     return switch await session.received(push) { case .newData: .newData; case .noData: .noData; case .failed: .failed }
/// }
/// func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
///     guard let push = NotificationPush(userInfo: response.notification.request.content.userInfo) else { return }
///     let action = NotificationAction(rawValue: response.actionIdentifier) ?? .view   // a tap is View
///     if let route = await session.respond(to: push, with: action) { router.open(route) }
/// }
/// ```
extension SpotterSession {
    /// A push reached the app. A silent one refreshes the badge, the inbox and the Following feed in the
    /// client database (every screen observing it follows); an alert while the app runs refreshes the inbox
    /// and badge. Returns when done, with whether anything changed.
    public func received(_ push: NotificationPush) async -> BackgroundRefreshResult {
        switch push.kind {
        case .refresh: await refreshInBackground(feeds: [.following])
        case .alert: await refreshInBackground(feeds: [])
        }
    }

    /// Refreshes the unread count, the inbox's first page and the first page of each of `feeds`.
    public func refreshInBackground(feeds: [FeedKind] = [.following]) async -> BackgroundRefreshResult {
        do {
            let before = try await database.readInbox()
            try await database.saveInboxCounts(try await client.notificationCounts())
            try await database.saveInbox(try await client.notifications(cursor: nil).items, firstPage: true)
            for kind in feeds {
                try await database.save(try await client.feed(kind, cursor: nil), feed: kind, placement: .firstPage)
            }
            let after = try await database.readInbox()
            return feeds.isEmpty && before.value == after.value ? .noData : .newData
        } catch {
            return .failed
        }
    }

    /// The person chose `action` on the notification `push` (a tap is `.view`): the change is queued in the
    /// outbox and sent now if the network allows, the notification's row is marked read, and the route a
    /// tap opens is returned for `.view` (nil for the others, which act without opening the app).
    @discardableResult
    public func respond(to push: NotificationPush, with action: NotificationAction) async -> NotificationRoute? {
        if action == .view {
            await analytics.track("notification_open", properties: ["type": push.type?.rawValue ?? "digest"])
        }
        do {
            switch action {
            case .kudos:
                if let post = push.postID { _ = try await outbox.setKudos(true, on: post) }
            case .approve, .deny:
                if let answer = Self.answer(to: push, approve: action == .approve) {
                    _ = try await outbox.enqueue(answer)
                }
            case .view, .dismiss:
                break
            }
            if let key = push.groupKey { _ = try await outbox.markInbox(.markNotificationGroupRead(key)) }
        } catch {
            // The client database refused the write: nothing was queued, and the route still opens.
        }
        _ = await outbox.drain()
        return action == .view ? NotificationRoute(push) : nil
    }

    /// Approve or Deny on a request's push, as the outbox action that answers it.
    static func answer(to push: NotificationPush, approve: Bool) -> Action? {
        switch push.type {
        case .followRequest:
            return push.actorUsername.map { .answerFollowRequest($0, approve: approve) }
        case .groupJoinRequest:
            guard let group = push.groupID, let user = push.actorID else { return nil }
            return .answerJoinRequest(group, user, approve: approve)
        default:
            return nil
        }
    }
}
