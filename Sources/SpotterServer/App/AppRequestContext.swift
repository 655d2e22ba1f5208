import Foundation
import Hummingbird
import HummingbirdAuth
import NIOCore
import SpotterCore

/// What travels with each request through middleware to the handler.
public struct AppRequestContext: AuthRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The caller, once `BearerAuthenticator` has checked their access token.
    public var identity: AuthenticatedSession?
    /// The `X-Request-Id` this request answers with and logs under.
    public var requestID = ""
    /// The peer's IP address (`nil` in router tests, which have no socket).
    ///
    /// Read when asked, from the channel: only signing in needs it, and writing it out for every request
    /// was about 2% of a `GET /healthz` (issue 8's profile).
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

/// One JSON setup for the whole API: RFC 3339 UTC times, keys as the wire types spell them.
enum JSONCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
