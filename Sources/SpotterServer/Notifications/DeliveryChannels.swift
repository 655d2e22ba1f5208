import AsyncHTTPClient
import Foundation
import SpotterCore
import SpotterModels

/// iPhones, through APNs.
struct APNsChannel: DeliveryChannelClient {
    let client: APNsClient

    func reaches(_ target: DeliveryTarget) -> Bool {
        if case .apns = target { return true }
        return false
    }

    func deliver(_ message: OutgoingMessage, to target: DeliveryTarget) async -> DeliveryOutcome {
        guard case .apns(let token) = target else { return .failed(reason: "not an APNs device") }
        return await client.send(Self.notification(message, to: token))
    }

    /// A refresh wakes the app with nothing to show (and no badge: Apple refuses a background push that sets
    /// one, so the count travels as `unread` for the SDK to set); an alert groups by its inbox row
    /// (`thread-id`), offers its category's actions and carries the route's ids.
    static func notification(_ message: OutgoingMessage, to token: String) -> APNsNotification {
        let push = message.push
        switch push.kind {
        case .refresh:
            return APNsNotification(
                deviceToken: token, title: "", body: "", pushType: .background, customData: push.customData)
        case .alert:
            return APNsNotification(
                deviceToken: token, title: message.title, body: message.body, badge: message.badge,
                collapseID: message.collapseID, threadID: push.groupKey, category: push.category?.rawValue,
                mutableContent: true, customData: push.customData)
        }
    }
}

/// Browsers, through their push services (Web Push). The payload is what the web app's service worker
/// shows: `{"title", "body", "badge", "tag", "url"}`, `url` the page a click opens: the inbox row's own page,
/// which marks it read and goes where the web app's inbox goes.
struct WebPushChannel: DeliveryChannelClient {
    let client: WebPushClient

    func reaches(_ target: DeliveryTarget) -> Bool {
        if case .webPush = target { return true }
        return false
    }

    func deliver(_ message: OutgoingMessage, to target: DeliveryTarget) async -> DeliveryOutcome {
        guard case .webPush(let registration) = target, let endpoint = URL(string: registration.endpoint) else {
            return .gone(reason: "not a push endpoint")
        }
        var payload: [String: String] = ["title": message.title, "body": message.body]
        payload["badge"] = message.badge.map(String.init)
        payload["tag"] = message.collapseID
        payload["url"] = Self.url(of: message.push)
        let data = (try? JSONEncoder().encode(payload)) ?? Data()
        let subscription = WebPushSubscription(
            endpoint: endpoint, p256dh: registration.keys.p256dh, auth: registration.keys.auth)
        return await client.send(data, to: subscription)
    }

    /// The inbox row's page (the web inbox's own link), or the inbox for a digest.
    static func url(of push: NotificationPush) -> String {
        push.groupKey.map(WebNotificationsController.openHref) ?? "/notifications"
    }
}

/// Email, for digests and security alerts.
struct EmailChannel: DeliveryChannelClient {
    let mailer: SMTPMailer

    func reaches(_ target: DeliveryTarget) -> Bool {
        if case .email = target { return true }
        return false
    }

    func deliver(_ message: OutgoingMessage, to target: DeliveryTarget) async -> DeliveryOutcome {
        guard case .email(let address) = target else { return .failed(reason: "not an email address") }
        return await mailer.send(
            EmailMessage(to: address, subject: message.subject, text: message.text, html: message.html))
    }
}

extension DeliveryConfiguration {
    /// The channels these settings reach; an unset provider reaches nothing, so its targets are skipped.
    func channels() throws -> [any DeliveryChannelClient] {
        var channels: [any DeliveryChannelClient] = []
        if let apns {
            channels.append(APNsChannel(client: try APNsClient(configuration: apns, httpClient: .shared)))
        }
        if let webPush { channels.append(WebPushChannel(client: WebPushClient(keys: webPush, httpClient: .shared))) }
        if let smtp { channels.append(EmailChannel(mailer: SMTPMailer(configuration: smtp))) }
        return channels
    }
}
