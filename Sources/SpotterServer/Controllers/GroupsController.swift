import Hummingbird
import SpotterCore
import SpotterModels

/// `/api/v1/groups/…`: groups, their members, join requests, bans and invitations, and a group's posts.
struct GroupsController {
    let groups: GroupService
    let feeds: FeedService

    /// Readable signed out: discovery, an about page, an open group's posts and members, a link's group.
    var readEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get { request, context in
            let query = request.uri.queryParameters["q"].map(String.init) ?? ""
            return Page(items: try await groups.discover(query, viewer: context.viewer), nextCursor: nil)
        }
        routes.get(":id") { _, context in try await groups.get(try context.id("id"), viewer: context.viewer) }
        routes.get(":id/posts") { request, context in
            let query = request.uri.queryParameters
            switch query["order"].map(String.init) {
            case nil, GroupFeedOrder.newest.rawValue?:
                return try await feeds.group(
                    try context.id("id"), viewer: context.viewer, page: try request.pageRequest)
            case GroupFeedOrder.top.rawValue?:
                return try await feeds.groupTop(
                    try context.id("id"), viewer: context.viewer, limit: query["limit"].map(String.init),
                    cursor: query["cursor"].map(String.init))
            default:
                throw SpotterError.malformed(detail: "order must be newest or top.", field: "order")
            }
        }
        routes.get(":id/members") { request, context in
            let page = try request.pageRequest
            let members = try await groups.members(
                try context.id("id"), viewer: context.viewer, after: page.cursor.map(UserID.init(rawValue:)),
                limit: page.limit + 1)
            return page.page(members) { $0.person.id.rawValue }
        }
        return routes
    }

    /// `/api/v1/group-invitations/{code}`: what an invitation link leads to, before joining.
    var invitationPreview: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get(":code") { _, context in
            try await groups.preview(code: try context.text("code"), viewer: context.viewer)
        }
        return routes
    }

    var signedInEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post { request, context in
            let body = try await request.decodeJSON(CreateGroupRequest.self, context: context)
            return EditedResponse(
                status: .created, response: try await groups.create(body, by: try context.requireViewer()))
        }
        routes.post("join") { request, context in
            let body = try await request.decodeJSON(JoinByCodeRequest.self, context: context)
            return try await groups.join(
                code: try TextInput.checked(body.code, field: "code"), by: try context.requireViewer())
        }
        routes.patch(":id") { request, context in
            let body = try await request.decodeJSON(UpdateGroupRequest.self, context: context)
            return try await groups.update(try context.id("id"), with: body, by: try context.requireViewer())
        }
        routes.delete(":id") { _, context in
            try await groups.delete(try context.id("id"), by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.post(":id/join") { _, context in
            try await groups.join(try context.id("id"), by: try context.requireViewer())
        }
        routes.post(":id/seen") { request, context in
            let body = try await request.decodeJSON(GroupSeenRequest.self, context: context)
            return try await groups.markSeen(try context.id("id"), upTo: body.upTo, by: try context.requireViewer())
        }
        routes.post(":id/leave") { _, context in
            try await groups.leave(try context.id("id"), by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.get(":id/requests") { _, context in
            Page(
                items: try await groups.requests(try context.id("id"), by: try context.requireViewer()), nextCursor: nil
            )
        }
        routes.post(":id/requests/:user_id/approve") { _, context in
            try await groups.answerRequest(
                try context.id("id"), from: try context.id("user_id"), approve: true, by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.delete(":id/requests/:user_id") { _, context in
            try await groups.answerRequest(
                try context.id("id"), from: try context.id("user_id"), approve: false, by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.patch(":id/members/:user_id") { request, context in
            let body = try await request.decodeJSON(SetMemberRoleRequest.self, context: context)
            try await groups.setRole(
                try context.id("id"), of: try context.id("user_id"), to: body.role, by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.delete(":id/members/:user_id") { _, context in
            try await groups.remove(
                try context.id("id"), try context.id("user_id"), ban: false, by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.get(":id/bans") { _, context in
            Page(items: try await groups.bans(try context.id("id"), by: try context.requireViewer()), nextCursor: nil)
        }
        routes.put(":id/bans/:user_id") { _, context in
            try await groups.remove(
                try context.id("id"), try context.id("user_id"), ban: true, by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.delete(":id/bans/:user_id") { _, context in
            try await groups.unban(try context.id("id"), try context.id("user_id"), by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.post(":id/transfer") { request, context in
            let body = try await request.decodeJSON(TransferGroupRequest.self, context: context)
            return try await groups.transfer(try context.id("id"), to: body.userID, by: try context.requireViewer())
        }
        routes.post(":id/invitations") { request, context in
            let body = try await request.decodeJSON(CreateInvitationRequest.self, context: context)
            let invitation = try await groups.invite(try context.id("id"), body, by: try context.requireViewer())
            return EditedResponse(status: .created, response: invitation)
        }
        routes.get(":id/invitations") { _, context in
            Page(
                items: try await groups.invitations(try context.id("id"), by: try context.requireViewer()),
                nextCursor: nil)
        }
        routes.delete(":id/invitations/:invitation_id") { _, context in
            try await groups.revoke(
                try context.id("id"), invitation: try context.id("invitation_id"), by: try context.requireViewer())
            return Response(status: .noContent)
        }
        return routes
    }

    /// `/api/v1/me/groups` and `/api/v1/me/group-invitations`.
    var mine: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("groups") { _, context in
            Page(items: try await groups.mine(try context.requireViewer()), nextCursor: nil)
        }
        routes.get("group-invitations") { _, context in
            Page(items: try await groups.invitations(for: try context.requireViewer()), nextCursor: nil)
        }
        routes.get("group-requests") { _, context in
            Page(items: try await groups.requested(by: try context.requireViewer()), nextCursor: nil)
        }
        return routes
    }
}

extension Group: ResponseEncodable {}
extension GroupInvitation: ResponseEncodable {}
