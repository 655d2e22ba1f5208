import Foundation

/// One push to one device, in the terms APNs uses.
///
/// ```swift
/// let push = APNsNotification(
///     deviceToken: token, title: "Ana liked your workout", body: "Leg day, 5×5",
///     badge: 3, collapseID: "likes-\(postID)", threadID: "post-\(postID)")
/// let outcome = await apns.send(push)
/// ```
///
/// See https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
public struct APNsNotification: Sendable, Equatable {
    /// The device token as the app reported it: hex, as `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`
    /// gives it once hex-encoded.
    public var deviceToken: String
    public var title: String
    public var body: String
    /// The number on the app icon; `nil` leaves it as it is.
    public var badge: Int?
    /// Replaces an earlier notification with the same id still on the device (a like count, say) instead of
    /// stacking another one. APNs allows at most 64 bytes; a longer one is refused before sending.
    public var collapseID: String?
    /// Groups notifications on the device (one thread per post, say).
    public var threadID: String?
    /// The category the app registered, whose actions iOS offers on the notification (Kudos, Approve).
    public var category: String?
    /// Lets the app's notification service extension change the alert before it shows (`mutable-content`).
    public var mutableContent: Bool
    public var pushType: APNsPushType
    public var priority: APNsPriority
    /// Until when APNs keeps trying an offline device; `nil` leaves APNs's default (store and retry for a while).
    public var expiration: Date?
    /// Extra keys beside `aps` for the app to read (a post id to open, say). A key named `aps` is ignored.
    public var customData: [String: String]

    /// - Parameter priority: defaults to what the push type requires: `.immediate` for an alert, `.conserveBattery`
    ///   for a background push (APNs refuses a background push sent with priority 10).
    public init(
        deviceToken: String, title: String, body: String, badge: Int? = nil, collapseID: String? = nil,
        threadID: String? = nil, category: String? = nil, mutableContent: Bool = false,
        pushType: APNsPushType = .alert, priority: APNsPriority? = nil, expiration: Date? = nil,
        customData: [String: String] = [:]
    ) {
        self.category = category
        self.mutableContent = mutableContent
        self.deviceToken = deviceToken
        self.title = title
        self.body = body
        self.badge = badge
        self.collapseID = collapseID
        self.threadID = threadID
        self.pushType = pushType
        self.priority = priority ?? (pushType == .background ? .conserveBattery : .immediate)
        self.expiration = expiration
        self.customData = customData
    }
}

/// The `apns-push-type` header: APNs requires it, and watchOS and iOS 13+ drop pushes whose type doesn't
/// match their payload.
public enum APNsPushType: String, Sendable, Equatable {
    /// Shows an alert, plays a sound or sets the badge.
    case alert
    /// Wakes the app quietly (`content-available`) to fetch something; nothing is shown.
    case background
}

/// The `apns-priority` header.
public enum APNsPriority: Int, Sendable, Equatable {
    /// Deliver now: the only choice for an alert the user should see promptly.
    case immediate = 10
    /// Deliver when it suits the device's power budget; required for background pushes.
    case conserveBattery = 5
}
