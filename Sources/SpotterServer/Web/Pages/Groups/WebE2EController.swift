import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/e2e/…`: the JSON routes the pages' script uses for encrypted groups (docs/encryption.md), with the session
/// cookie instead of a bearer token. Writes carry the page's CSRF token in `X-CSRF-Token`, which the session
/// middleware checks before anything runs; errors answer problem+json, never a page: a script reads them.
///
/// The routes are the API's own (`E2EController`, the same handlers and services), mounted a second time:
/// `/e2e/me/device-chain`, `/e2e/device-chains/<user>`, `/e2e/groups/<id>/e2e/…`, `/e2e/posts/<id>/tombstone`.
/// Beside them, the two writes of sealed content: `POST /e2e/posts` and `POST /e2e/posts/<id>/comments`, which
/// `PostService` takes only sealed for an encrypted group; and `GET /e2e/groups`, the ids of the viewer's encrypted
/// groups, whose keys a device wraps to a new recovery key or reads through one.
struct WebE2EController {
    let e2e: E2EController
    let posts: PostService
    let groups: GroupService

    struct EncryptedGroups: ResponseEncodable {
        let groups: [GroupID]
    }

    func addRoutes(to web: RouterGroup<AppRequestContext>) {
        // Inside the session middleware, so its error pages never reach a script.
        let routes = web.group("e2e").add(middleware: ProblemMiddleware())
        routes.addRoutes(e2e.meEndpoints, atPath: "me")
        routes.addRoutes(e2e.chainEndpoints, atPath: "device-chains")
        routes.addRoutes(e2e.groupEndpoints, atPath: "groups")
        routes.addRoutes(e2e.postEndpoints, atPath: "posts")
        routes.addRoutes(sealedWrites, atPath: "posts")
        routes.get("groups") { _, context in
            let mine = try await groups.mine(try context.requireViewer())
            return EncryptedGroups(groups: mine.filter { $0.encrypted && $0.standing.role != nil }.map(\.id))
        }
    }

    /// Only sealed content passes here: the pages post plain content through their forms.
    private var sealedWrites: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post { request, context in
            let body = try await request.decodeJSON(CreatePostRequest.self, context: context)
            guard body.sealed != nil else { throw SpotterError.invalid("sealed", "is required here") }
            return EditedResponse(
                status: .created, response: try await posts.create(body, author: try context.requireViewer()))
        }
        routes.post(":id/comments") { request, context in
            let id: PostID = try context.id("id")
            let body = try await request.decodeJSON(CreateCommentRequest.self, context: context)
            guard body.sealed != nil else { throw SpotterError.invalid("sealed", "is required here") }
            let comment = try await posts.comment(on: id, body, viewer: try context.requireViewer())
            return EditedResponse(status: .created, response: comment)
        }
        return routes
    }
}
