import Hummingbird
import SpotterCore
import SpotterModels

/// `/settings/web-push`: the JSON routes `web-push.js` calls from Settings → Notifications, "This browser", to
/// register the browser's push subscription and to forget it, with the session cookie instead of a bearer token.
///
/// The bodies are the API's (`POST /api/v1/notifications/web-push` and `…/web-push/unsubscribe`), handed to the
/// same `NotificationService` calls, which check them. Writes carry the page's CSRF token in `X-CSRF-Token`,
/// checked by `WebSessionMiddleware` before anything runs; errors answer problem+json, never a page.
///
/// - `POST /settings/web-push`: `{"endpoint", "keys": {"p256dh", "auth"}}`, a `PushSubscription`'s JSON; 204.
/// - `POST /settings/web-push/unsubscribe`: `{"endpoint"}`; 204, or 404 when the server had no such subscription.
struct WebPushSubscriptionController {
    let notifications: NotificationService

    func addRoutes(to web: RouterGroup<AppRequestContext>) {
        // Inside the session middleware, so its error pages never reach a script.
        let routes = web.group("settings/web-push").add(middleware: ProblemMiddleware())
        routes.post { request, context in
            let body = try await request.decodeJSON(WebPushRegistration.self, context: context)
            try await notifications.registerWebPush(try context.requireViewer(), body)
            return Response(status: .noContent)
        }
        routes.post("unsubscribe") { request, context in
            let body = try await request.decodeJSON(WebPushUnsubscribe.self, context: context)
            try await notifications.removeWebPush(try context.requireViewer(), endpoint: body.endpoint)
            return Response(status: .noContent)
        }
    }
}
