import Hummingbird
import SpotterCore
import SpotterModels

/// `/api/v1/me/children/…` and `/api/v1/me/guardian-invitations/…`: the child profiles a person manages.
struct ChildrenController {
    let children: ChildProfileService

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("children") { _, context in
            Page(items: try await children.mine(try context.requireViewer()), nextCursor: nil)
        }
        routes.post("children") { request, context in
            let body = try await request.decodeJSON(CreateChildProfileRequest.self, context: context)
            return EditedResponse(
                status: .created, response: try await children.create(body, by: try context.requireViewer()))
        }
        routes.get("children/:id") { _, context in
            try await children.get(try context.id("id"), viewer: try context.requireViewer())
        }
        routes.patch("children/:id") { request, context in
            let body = try await request.decodeJSON(UpdateChildProfileRequest.self, context: context)
            return try await children.update(try context.id("id"), with: body, by: try context.requireViewer())
        }
        routes.delete("children/:id") { _, context in
            try await children.delete(try context.id("id"), by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.post("children/:id/guardians") { request, context in
            let body = try await request.decodeJSON(InviteGuardianRequest.self, context: context)
            return try await children.inviteGuardian(
                try context.id("id"), username: body.username, by: try context.requireViewer())
        }
        routes.delete("children/:id/guardians/:user_id") { _, context in
            try await children.removeGuardian(
                try context.id("id"), try context.id("user_id"), by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.get("guardian-invitations") { _, context in
            Page(items: try await children.invitations(for: try context.requireViewer()), nextCursor: nil)
        }
        routes.post("guardian-invitations/:id/accept") { _, context in
            try await children.answerInvitation(try context.id("id"), accept: true, by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.delete("guardian-invitations/:id") { _, context in
            try await children.answerInvitation(try context.id("id"), accept: false, by: try context.requireViewer())
            return Response(status: .noContent)
        }
        return routes
    }
}

extension ChildProfile: ResponseEncodable {}
