import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import SpotterModels

/// A push service on 127.0.0.1 that treats a message as a real one would: it checks the VAPID token
/// (RFC 8292 §4), the headers RFC 8030 §5 requires, decrypts the body as the browser would and keeps the
/// plaintext. Some endpoints answer as a service does when things go wrong.
///
/// Endpoints are `/push/<name>`: `gone` answers 410, `unknown` 404, `busy` 503 with `Retry-After: 120`;
/// any other name is a live subscription.
struct LocalPushService: Sendable {
    /// The browser that owns every subscription here.
    let browser = WebPushBrowser()
    /// The `applicationServerKey` the browser subscribed with; the service refuses any other (RFC 8292 §4.2).
    let applicationServerKey: String
    let inbox = PushInbox()

    /// Runs the service while `body` runs; `body` gets the service's base URL, `http://127.0.0.1:<port>`.
    func run(_ body: @Sendable (_ baseURL: String) async throws -> Void) async throws {
        let router = Router()
        router.post("push/:name") { request, context in
            try await handle(request, name: context.parameters.get("name") ?? "")
        }
        var logger = Logger(label: "push-service")
        logger.logLevel = .warning
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        try await app.test(.live) { client in
            guard let port = client.port else { throw PushServiceError.noPort }
            try await body("http://127.0.0.1:\(port)")
        }
    }

    private func handle(_ request: Request, name: String) async throws -> Response {
        let bytes = try await request.body.collect(upTo: 8192)
        if let refusal = await vapidRefusal(request) {
            await inbox.refused(refusal)
            return Response(status: refusal)
        }
        switch name {
        case "gone": return Response(status: .gone)
        case "unknown": return Response(status: .notFound)
        case "busy": return Response(status: .serviceUnavailable, headers: [.retryAfter: "120"])
        default: break
        }
        guard let ttl = request.headers[.ttl].flatMap(Int.init) else { return Response(status: .badRequest) }
        guard request.headers[.contentEncoding] == "aes128gcm" else { return Response(status: .unsupportedMediaType) }
        guard let plaintext = try? browser.decrypt(Data(bytes.readableBytesView)) else {
            return Response(status: .badRequest)
        }
        await inbox.received(
            ReceivedPush(
                name: name, plaintext: plaintext, ttl: ttl, urgency: request.headers[.urgency],
                topic: request.headers[.topic]))
        return Response(status: .created, headers: [.location: "/message/\(UUID())"])
    }

    /// Why the service turns the request away, or `nil` when its VAPID token is good (RFC 8292 §3, §4.2).
    private func vapidRefusal(_ request: Request) async -> HTTPResponse.Status? {
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("vapid ") else {
            return .unauthorized
        }
        var parameters: [String: String] = [:]
        for part in authorization.dropFirst("vapid ".count).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parameters[String(pair[0])] = String(pair[1]) }
        }
        guard let token = parameters["t"], let k = parameters["k"] else { return .unauthorized }
        guard k == applicationServerKey else { return .forbidden }
        guard let raw = Base64URL.decode(k), let key = try? P256.Signing.PublicKey(x963Representation: raw),
            let verifier = try? ES256PublicKey(backing: key)
        else { return .unauthorized }
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: verifier)
        guard let claims = try? await keys.verify(token, as: PushServiceClaims.self) else { return .unauthorized }
        let origin = "http://\(request.head.authority ?? "")"
        guard claims.aud.value == [origin],
            claims.exp.value <= Date().addingTimeInterval(24 * 3600),
            claims.sub.value.hasPrefix("mailto:") || claims.sub.value.hasPrefix("https:")
        else { return .unauthorized }
        return nil
    }
}

/// The VAPID claims as the push service reads them; `verify` runs after the signature checks out.
struct PushServiceClaims: JWTPayload {
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var sub: SubjectClaim

    func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
}

/// One message the service accepted, as the browser will get it.
struct ReceivedPush: Sendable, Equatable {
    var name: String
    var plaintext: Data
    var ttl: Int
    var urgency: String?
    var topic: String?
}

/// What reached the service: accepted messages and the statuses of refused ones.
actor PushInbox {
    private(set) var messages: [ReceivedPush] = []
    private(set) var refusals: [HTTPResponse.Status] = []

    func received(_ message: ReceivedPush) { messages.append(message) }
    func refused(_ status: HTTPResponse.Status) { refusals.append(status) }
}

enum PushServiceError: Error { case noPort }

extension HTTPField.Name {
    static let ttl = Self("TTL")!
    static let urgency = Self("Urgency")!
    static let topic = Self("Topic")!
}
