import Hummingbird
import SpotterCore

/// What `GET /socket/websocket` answers when it did not become a WebSocket: 403 for a missing, bad or expired
/// token (so a client knows to refresh and retry), 400 for a valid token on a plain HTTP request.
struct SocketFallbackController {
    let accounts: AccountService

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get(RouterPath(PhoenixSocket.path)) { request, _ -> Response in
            guard let credentials = PhoenixSocket.credentials(request),
                (try? await accounts.authenticate(accessToken: credentials.token)) != nil
            else {
                throw SpotterError.forbidden(
                    "The socket needs a valid access token (?token= or the phoenix subprotocol).")
            }
            throw SpotterError.malformed(detail: "This endpoint speaks WebSocket: send an upgrade request.", field: nil)
        }
        return routes
    }
}
