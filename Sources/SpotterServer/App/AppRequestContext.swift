import Foundation
import Hummingbird
import HummingbirdAuth
import NIOCore
import SpotterCore
import SpotterModels

/// What travels with each request through middleware to the handler.
public struct AppRequestContext: AuthRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The caller, once `BearerAuthenticator` has checked their access token.
    public var identity: AuthenticatedSession?
    /// The `X-Request-Id` this request answers with and logs under.
    public var requestID = ""
    /// The peer's IP address (`nil` in router tests, which have no socket).
    ///
    /// Read when asked, from the channel: only signing in needs it, and writing it out (`inet_ntop`, then a
    /// `String`) for every request would make all of them pay for what one uses.
    public var peerAddress: String? { channel.remoteAddress?.ipAddress }
    private let channel: any Channel
    /// Set by the app from its configuration.
    public var maxBodySize = 1 << 20
    /// The web app's per-request state (session cookie, CSRF token), set by `WebSessionMiddleware`.
    var web = WebRequestState()

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    public var maxUploadSize: Int { maxBodySize }

    public var requestDecoder: JSONDecoder { JSONCoding.decoder }
    public var responseEncoder: APIResponseEncoder { APIResponseEncoder() }
}

/// The server's JSON coders: `WireJSON`'s configuration (RFC 3339 UTC times, keys as the wire types spell
/// them, sorted), the one SpotterKit uses, made once.
enum JSONCoding {
    static let encoder = WireJSON.encoder()
    static let decoder = WireJSON.decoder()
}
