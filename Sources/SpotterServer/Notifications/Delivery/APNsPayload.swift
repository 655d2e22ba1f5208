import Foundation

/// The JSON body of a push: Apple's `aps` dictionary, and the app's own keys beside it.
///
/// An alert carries `alert` (title, body), `sound`, `badge`, `thread-id`, `category` and `mutable-content`; a
/// background push carries only
/// `content-available`, because iOS throttles or drops a background push that also asks to show something.
/// See https://developer.apple.com/documentation/usernotifications/generating-a-remote-notification
struct APNsPayload: Encodable {
    let notification: APNsNotification

    /// The bytes to POST, keys sorted so the same notification always gives the same body.
    static func json(for notification: APNsNotification) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(APNsPayload(notification: notification))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var aps = container.nestedContainer(keyedBy: Key.self, forKey: "aps")
        switch notification.pushType {
        case .alert:
            var alert = aps.nestedContainer(keyedBy: Key.self, forKey: "alert")
            try alert.encode(notification.title, forKey: "title")
            try alert.encode(notification.body, forKey: "body")
            try aps.encode("default", forKey: "sound")
            try aps.encodeIfPresent(notification.badge, forKey: "badge")
            try aps.encodeIfPresent(notification.threadID, forKey: "thread-id")
            try aps.encodeIfPresent(notification.category, forKey: "category")
            if notification.mutableContent { try aps.encode(1, forKey: "mutable-content") }
        case .background:
            try aps.encode(1, forKey: "content-available")
        }
        for (key, value) in notification.customData where key != "aps" {
            try container.encode(value, forKey: Key(stringValue: key))
        }
    }

    /// Any string as a key: APNs's keys have dashes and the app's are its own.
    struct Key: CodingKey, ExpressibleByStringLiteral {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init(stringLiteral value: String) { self.stringValue = value }
        init?(intValue: Int) { nil }
    }
}
