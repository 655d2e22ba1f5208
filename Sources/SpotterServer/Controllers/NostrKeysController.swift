import Foundation
import Hummingbird
import SpotterCore
import SpotterModels
import SpotterNostr

/// `/api/v1/nostr/challenge` and `/api/v1/nostr/keys`: the caller's linked Nostr keys.
struct NostrKeysController {
    let nostr: NostrAccountService

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post("challenge") { _, context in
            EditedResponse(status: .created, response: try await nostr.challenge(try context.requireIdentity()))
        }
        routes.post("keys") { request, context in
            let body = try await request.decodeJSON(NostrLinkRequest.self, context: context)
            return EditedResponse(
                status: .created, response: try await nostr.link(body, try context.requireIdentity()))
        }
        routes.get("keys") { _, context in try await nostr.keys(try context.requireIdentity()) }
        routes.delete("keys/:pubkey") { _, context in
            try await nostr.unlink(context.parameters.get("pubkey") ?? "", try context.requireIdentity())
            return Response(status: .noContent)
        }
        return routes
    }
}

extension NostrChallenge: ResponseEncodable {}
extension NostrKey: ResponseEncodable {}
