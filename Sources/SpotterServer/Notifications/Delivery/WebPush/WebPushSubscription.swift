import Foundation

/// Where and how to reach one browser: what `PushSubscription.toJSON()` hands the page, stored as it came.
///
/// The endpoint is the push service's URL for this subscription
/// ([RFC 8030 §5](https://www.rfc-editor.org/rfc/rfc8030#section-5)); the two keys let only this browser read
/// what we send through it ([RFC 8291 §2](https://www.rfc-editor.org/rfc/rfc8291#section-2)).
///
/// ```swift
/// let subscription = try JSONDecoder().decode(WebPushSubscription.self, from: body)
/// ```
public struct WebPushSubscription: Sendable, Codable, Hashable {
    /// The push service's URL for this subscription; a POST to it is a push message.
    public var endpoint: URL
    /// The browser's P-256 public key, uncompressed (65 bytes), base64url: `ua_public` in RFC 8291.
    public var p256dh: String
    /// The browser's 16-byte authentication secret, base64url: `auth_secret` in RFC 8291.
    public var auth: String

    public init(endpoint: URL, p256dh: String, auth: String) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
    }

    /// The JSON a browser produces nests the keys: `{"endpoint": …, "keys": {"p256dh": …, "auth": …}}`.
    private enum CodingKeys: String, CodingKey { case endpoint, keys }
    private enum KeyCodingKeys: String, CodingKey { case p256dh, auth }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let keys = try container.nestedContainer(keyedBy: KeyCodingKeys.self, forKey: .keys)
        self.init(
            endpoint: try container.decode(URL.self, forKey: .endpoint),
            p256dh: try keys.decode(String.self, forKey: .p256dh),
            auth: try keys.decode(String.self, forKey: .auth))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(endpoint, forKey: .endpoint)
        var keys = container.nestedContainer(keyedBy: KeyCodingKeys.self, forKey: .keys)
        try keys.encode(p256dh, forKey: .p256dh)
        try keys.encode(auth, forKey: .auth)
    }

    /// The origin a VAPID token's `aud` must name: `scheme://host[:port]`
    /// ([RFC 8292 §2](https://www.rfc-editor.org/rfc/rfc8292#section-2)), serialized as RFC 6454 §6.1 says:
    /// the port only when it is not the scheme's default, so `https://push.example:443/x` has the audience
    /// `https://push.example`.
    var audience: String? {
        guard let components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
        else { return nil }
        let defaultPort = ["https": 443, "http": 80][scheme]
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        return "\(scheme)://\(host.lowercased())\(port)"
    }
}
