import Hummingbird
import SpotterCore
import SpotterModels

/// `/api/v1/nostr/import/…`: what a person asks Spotter to take from their Nostr events on its relay.
struct NostrImportController {
    let ingest: NostrIngestService

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post("contacts") { _, context in
            try await ingest.importContacts(for: try context.requireIdentity().account)
        }
        routes.post("profile") { _, context in
            try await ingest.importProfile(for: try context.requireIdentity())
        }
        return routes
    }
}

extension NostrContactsImport: ResponseEncodable {}
