import Hummingbird
import SpotterCore
import SpotterModels

/// `/api/v1/notifications/…`: the inbox, its counts and marks, preferences, and the devices and browsers
/// that receive pushes. Everything is the signed-in user's own.
struct NotificationsController {
    let notifications: NotificationService
    /// The VAPID public key browsers subscribe with; `nil` when Web Push is not configured.
    let webPushKey: String?

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get { request, context in
            try await notifications.inbox(try context.requireViewer(), page: try request.pageRequest)
        }
        routes.get("counts") { _, context in try await notifications.counts(try context.requireViewer()) }
        routes.post("seen") { request, context in
            let body = try await request.decodeJSON(MarkNotificationsRequest.self, context: context)
            return try await notifications.markSeen(try context.requireViewer(), upTo: body.upTo)
        }
        routes.post("read") { request, context in
            let body = try await request.decodeJSON(MarkNotificationsRequest.self, context: context)
            return try await notifications.markRead(try context.requireViewer(), upTo: body.upTo)
        }
        routes.post("groups/:group_key/read") { _, context in
            try await notifications.markGroupRead(try context.requireViewer(), groupKey: try context.text("group_key"))
        }
        routes.post("groups/:group_key/archive") { _, context in
            try await notifications.archive(try context.requireViewer(), groupKey: try context.text("group_key"))
        }
        routes.get("preferences") { _, context in try await notifications.preferences(try context.requireViewer()) }
        routes.put("preferences") { request, context in
            let body = try await request.decodeJSON(NotificationPreferences.self, context: context)
            return try await notifications.updatePreferences(try context.requireViewer(), to: body)
        }
        routes.post("devices") { request, context in
            let body = try await request.decodeJSON(DeviceRegistration.self, context: context)
            try await notifications.registerDevice(try context.requireViewer(), body)
            return Response(status: .noContent)
        }
        routes.delete("devices") { request, context in
            let body = try await request.decodeJSON(DeviceRegistration.self, context: context)
            try await notifications.removeDevice(try context.requireViewer(), token: body.token)
            return Response(status: .noContent)
        }
        // The first form, kept for clients that still call it: its token is in the path, which the access log
        // leaves out for this route (`AccessLogMiddleware.redactedRoutes`).
        routes.delete("devices/:token") { _, context in
            try await notifications.removeDevice(try context.requireViewer(), token: try context.text("token"))
            return Response(status: .noContent)
        }
        routes.get("web-push/key") { _, _ in
            guard let webPushKey else { throw SpotterError.notFound("Web Push is not configured on this server.") }
            return WebPushKey(publicKey: webPushKey)
        }
        routes.post("web-push") { request, context in
            let body = try await request.decodeJSON(WebPushRegistration.self, context: context)
            try await notifications.registerWebPush(try context.requireViewer(), body)
            return Response(status: .noContent)
        }
        routes.post("web-push/unsubscribe") { request, context in
            let body = try await request.decodeJSON(WebPushUnsubscribe.self, context: context)
            try await notifications.removeWebPush(try context.requireViewer(), endpoint: body.endpoint)
            return Response(status: .noContent)
        }
        return routes
    }
}

/// `POST /api/v1/notifications/web-push/unsubscribe`: the endpoint of the subscription to forget.
struct WebPushUnsubscribe: Codable {
    var endpoint: String
}

extension NotificationCounts: ResponseEncodable {}
extension NotificationPreferences: ResponseEncodable {}
extension WebPushKey: ResponseEncodable {}
