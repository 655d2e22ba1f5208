import Foundation
import Hummingbird
import NIOCore
import SpotterCore

/// NIP-11: `GET /relay` with `Accept: application/nostr+json` answers the relay's information document, with
/// the limits it enforces, readable from any web page (CORS). A plain `GET` says what the address is.
///
/// <https://github.com/nostr-protocol/nips/blob/master/11.md>
struct NostrRelayInformation {
    let relay: NostrRelayService
    let name: String
    let relayURL: String

    struct Document: Encodable {
        struct Limitation: Encodable {
            var maxMessageLength: Int
            var maxSubscriptions: Int
            var maxFilters: Int
            var maxLimit: Int
            var maxSubidLength: Int
            var maxEventTags: Int
            var maxContentLength: Int
            var minPowDifficulty = 0
            var authRequired = false
            var paymentRequired = false
            var restrictedWrites: Bool
            var createdAtLowerLimit: Int64
            var createdAtUpperLimit: Int64
            var defaultLimit: Int
            /// Not in NIP-11's list; relays publish their rate limit under this name by convention.
            var maxMessagesPerSecond: Int
        }

        var name: String
        var description: String
        var supportedNips = [1, 9, 11, 42, 45, 50]
        var software = "spotter"
        var limitation: Limitation
        var postingPolicy: String?
    }

    var document: Document {
        let limits = relay.limits
        let linked = relay.policy == .linked
        return Document(
            name: name,
            description: linked
                ? "The Nostr relay of a Spotter community: workouts (NIP-101e) and notes from its members' linked keys."
                : "The Nostr relay of a Spotter community: workouts (NIP-101e) and notes; open to every valid event.",
            limitation: .init(
                maxMessageLength: limits.maxMessageLength, maxSubscriptions: limits.maxSubscriptions,
                maxFilters: limits.maxFilters, maxLimit: limits.maxLimit,
                maxSubidLength: limits.maxSubscriptionIDLength, maxEventTags: limits.maxEventTags,
                maxContentLength: limits.maxContentLength, restrictedWrites: linked,
                createdAtLowerLimit: limits.createdAtLowerLimit, createdAtUpperLimit: limits.createdAtUpperLimit,
                defaultLimit: limits.defaultLimit, maxMessagesPerSecond: limits.maxMessagesPerSecond),
            postingPolicy: linked ? "Only keys linked to an account of this Spotter community may publish." : nil)
    }

    static let cors: HTTPFields = [
        .accessControlAllowOrigin: "*",
        .accessControlAllowHeaders: "Accept",
        .accessControlAllowMethods: "GET, OPTIONS",
    ]

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        let body: ByteBuffer = {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return ByteBuffer(data: (try? encoder.encode(document)) ?? Data("{}".utf8))
        }()
        let relayURL = relayURL
        routes.get("relay") { request, _ in
            let wantsInformation = request.headers[values: .accept].contains {
                $0.lowercased().contains("application/nostr+json")
            }
            guard wantsInformation else {
                var headers = Self.cors
                headers[.contentType] = "text/plain; charset=utf-8"
                return Response(
                    status: .ok, headers: headers,
                    body: .init(
                        byteBuffer: ByteBuffer(
                            string: "This is a Nostr relay. Connect a Nostr client to \(relayURL)\n")))
            }
            var headers = Self.cors
            headers[.contentType] = "application/nostr+json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
        }
        routes.on("relay", method: .options) { _, _ in Response(status: .noContent, headers: Self.cors) }
        return routes
    }
}
