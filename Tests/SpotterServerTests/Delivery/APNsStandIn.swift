import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1

/// What APNs does with a request, for tests: checks it as Apple documents the provider API, records it, and
/// answers as APNs would, or as the test says.
/// See https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
final class APNsStandIn: Sendable {
    /// One request as it arrived, and how it was answered.
    struct Received: Sendable {
        let httpVersion: HTTPVersion
        let path: String
        /// Lowercased names, first value of each.
        let headers: [String: String]
        let jwt: String?
        /// The provider token's claims when its signature held.
        let claims: ProviderTokenCheck.Claims?
        let body: [UInt8]
        let status: Int
        let reason: String?

        /// The JSON body, when it is an object.
        var payload: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] }
        var aps: [String: Any]? { payload?["aps"] as? [String: Any] }
    }

    struct Answer {
        let status: Int
        let headers: [(String, String)]
        let body: [UInt8]
    }

    private struct State {
        var received: [Received] = []
        var unregistered: Set<String> = []
        var badTokens: Set<String> = []
        var scripted: [(status: Int, reason: String, retryAfter: String?)] = []
    }

    let tokenCheck: ProviderTokenCheck
    let topic: String
    private let now: @Sendable () -> Date
    private let state = NIOLockedValueBox(State())

    init(tokenCheck: ProviderTokenCheck, topic: String, now: @escaping @Sendable () -> Date) {
        self.tokenCheck = tokenCheck
        self.topic = topic
        self.now = now
    }

    var received: [Received] { state.withLockedValue { $0.received } }
    /// The app was uninstalled from this device: 410 `Unregistered` from now on.
    func markUnregistered(_ token: String) { state.withLockedValue { _ = $0.unregistered.insert(token) } }
    /// Never a device token: 400 `BadDeviceToken`.
    func markBad(_ token: String) { state.withLockedValue { _ = $0.badTokens.insert(token) } }
    /// Answers the next request that passes every check with this instead of 200.
    func answerNext(status: Int, reason: String, retryAfter: String? = nil) {
        state.withLockedValue { $0.scripted.append((status, reason, retryAfter)) }
    }

    /// Checks, records and answers one request.
    func answer(_ head: HTTPRequestHead, body: [UInt8]) -> Answer {
        let headers = HTTPHeaders(head.headers.map { ($0.name.lowercased(), $0.value) })
        let jwt = headers.first(name: "authorization").flatMap {
            $0.hasPrefix("bearer ") ? String($0.dropFirst(7)) : nil
        }
        let claims = jwt.flatMap { try? tokenCheck.claims(of: $0, now: now()) }
        return state.withLockedValue { state in
            var answer = (status: 200, reason: String?.none, retryAfter: String?.none)
            if let refusal = refusal(head, headers, jwt: jwt, body: body, state: state) {
                answer = (refusal.status, refusal.reason, nil)
            } else if !state.scripted.isEmpty {
                let next = state.scripted.removeFirst()
                answer = (next.status, next.reason, next.retryAfter)
            }
            state.received.append(
                Received(
                    httpVersion: head.version, path: head.uri,
                    headers: Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }),
                    jwt: jwt, claims: claims, body: body, status: answer.status, reason: answer.reason))
            var responseHeaders = [("apns-id", headers.first(name: "apns-id") ?? UUID().uuidString)]
            if let retryAfter = answer.retryAfter { responseHeaders.append(("retry-after", retryAfter)) }
            guard let reason = answer.reason else { return Answer(status: 200, headers: responseHeaders, body: []) }
            responseHeaders.append(("content-type", "application/json"))
            let timestamp = answer.status == 410 ? ",\"timestamp\":\(Int(now().timeIntervalSince1970 * 1000))" : ""
            return Answer(
                status: answer.status, headers: responseHeaders,
                body: Array("{\"reason\":\"\(reason)\"\(timestamp)}".utf8))
        }
    }

    /// APNs's answer to a request it refuses, checked in about the order APNs documents; `nil` when it's fine.
    private func refusal(
        _ head: HTTPRequestHead, _ headers: HTTPHeaders, jwt: String?, body: [UInt8], state: State
    ) -> (status: Int, reason: String)? {
        guard head.version.major == 2 else { return (505, "HTTPVersionNotSupported") }
        guard head.method == .POST else { return (405, "MethodNotAllowed") }
        let prefix = "/3/device/"
        guard head.uri.hasPrefix(prefix) else { return (404, "BadPath") }
        let token = String(head.uri.dropFirst(prefix.count))
        guard !token.isEmpty, token.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return (400, "BadDeviceToken") }
        guard let jwt else { return (403, "MissingProviderToken") }
        do { _ = try tokenCheck.claims(of: jwt, now: now()) } catch { return (403, error.reason) }
        guard let topic = headers.first(name: "apns-topic") else { return (400, "MissingTopic") }
        guard topic == self.topic else { return (400, "TopicDisallowed") }
        let pushType = headers.first(name: "apns-push-type")
        guard let pushType, ["alert", "background"].contains(pushType) else { return (400, "InvalidPushType") }
        let priority = headers.first(name: "apns-priority") ?? "10"
        guard priority == "10" || priority == "5", pushType == "alert" || priority == "5" else {
            return (400, "BadPriority")
        }
        if let collapseID = headers.first(name: "apns-collapse-id"), collapseID.utf8.count > 64 {
            return (400, "BadCollapseId")
        }
        if let expiration = headers.first(name: "apns-expiration"), Int(expiration) == nil {
            return (400, "BadExpirationDate")
        }
        guard body.count <= 4096 else { return (413, "PayloadTooLarge") }
        let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        guard json?["aps"] is [String: Any] else { return (400, "PayloadEmpty") }
        if state.unregistered.contains(token) { return (410, "Unregistered") }
        if state.badTokens.contains(token) { return (400, "BadDeviceToken") }
        return nil
    }
}
