import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/groups/<id>/settings`, for a group's admins: its fields, its invitations (a link shown once with Copy
/// link, one to a named person, the list with Revoke) and, for the owner, deleting it.
///
/// A new link's code exists only in the answer that makes it (the server keeps its hash), so that answer is
/// the settings page itself, with the link on it, rather than a redirect that could not carry it.
struct WebGroupSettingsController {
    let groups: GroupService
    let media: MediaService
    let pages: WebPages
    let clock: any WallClock

    struct InvitationView {
        let id: String
        /// "Link" or "@bea".
        let kind: String
        let isLink: Bool
        let byName: String
        let usesLabel: String
        let stateLabel: String
        let isOpen: Bool
    }

    struct SettingsView {
        let group: GroupView
        let form: GroupFormView
        let newLink: String?
        let invitations: [InvitationView]
        let hasInvitations: Bool
        let lifetimes: [WebSettingsController.Choice]
        let maxUses: String
        let username: String
        let inviteError: String?
        let inviteInvalid: Bool
        let notice: String?
        let avatarError: String?
        let hasAvatar: Bool
        let onSettings = true
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("groups/:id/settings") { request, context in
            let notice = request.uri.queryParameters["done"].flatMap { Self.notices[String($0)] }
            return try await settings(try context.webID("id"), notice: notice, context: context)
        }
        routes.post("groups/:id/settings") { _, context in
            let id: GroupID = try context.webID("id")
            let viewer = try context.requireWebViewer()
            let form = context.web.form
            do {
                let request = UpdateGroupRequest(
                    name: form.all("name").first ?? "", description: form.all("description").first ?? "",
                    access: try form.groupAccess(), timeZone: form["time_zone"] ?? "")
                _ = try await groups.update(id, with: request, by: viewer)
                return WebPages.redirect(to: "/groups/\(id)/settings?done=saved")
            } catch {
                // A refusal about the form (a group holding posts that name a child stays private, say) keeps
                // what was typed too; one about the person (not an admin, no such group) is its page.
                guard let (status, messages) = WebErrors.explain(error), status != .forbidden, status != .notFound
                else { throw error }
                var problems: [FieldError] = []
                if case SpotterError.validation(let fields) = error { problems = fields }
                let typed = GroupFormView(
                    form: form, defaultTimeZone: viewer.profile.timeZone, problems: problems,
                    errors: problems.isEmpty ? messages : [])
                var response = try await settings(id, form: typed, context: context)
                response.status = status
                return response
            }
        }
        routes.post("groups/:id/avatar") { _, context in
            let id: GroupID = try context.webID("id")
            let viewer = try context.requireWebViewer()
            return try await savingAvatar(id, done: "avatar", context: context) {
                let upload = try await WebAvatarUpload(media: media).mediaID(context, owner: viewer)
                _ = try await groups.update(id, with: UpdateGroupRequest(avatarMediaID: upload), by: viewer)
            }
        }
        routes.post("groups/:id/avatar/remove") { _, context in
            let id: GroupID = try context.webID("id")
            let viewer = try context.requireWebViewer()
            return try await savingAvatar(id, done: "avatar-removed", context: context) {
                _ = try await groups.update(id, with: UpdateGroupRequest(removeAvatar: true), by: viewer)
            }
        }
        routes.post("groups/:id/invitations") { _, context in
            let id: GroupID = try context.webID("id")
            let form = context.web.form
            do {
                let request = CreateInvitationRequest(
                    expiresIn: form["expires_in"].flatMap { Int($0) }, maxUses: form["max_uses"].flatMap { Int($0) })
                let invitation = try await groups.invite(id, request, by: try context.requireWebViewer())
                return try await settings(id, newLink: invitation.url, context: context)
            } catch {
                guard let (status, messages) = WebErrors.explain(error), status != .forbidden, status != .notFound
                else { throw error }
                var response = try await settings(
                    id, notice: messages.joined(separator: " "), maxUses: form["max_uses"] ?? "", context: context)
                response.status = status
                return response
            }
        }
        routes.post("groups/:id/invitations/named") { _, context in
            let id: GroupID = try context.webID("id")
            let username = (context.web.form["username"] ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "@"))
            do {
                _ = try await groups.invite(
                    id, CreateInvitationRequest(username: username), by: try context.requireWebViewer())
                return WebPages.redirect(to: "/groups/\(id)/settings?done=invited")
            } catch {
                guard let (status, messages) = WebErrors.explain(error), status != .forbidden else { throw error }
                // A person who doesn't exist (404) is a mistyped name here, not a missing page.
                let detail =
                    status == .notFound ? "There is no one called @\(username)." : messages.joined(separator: " ")
                var response = try await settings(id, username: username, inviteError: detail, context: context)
                response.status = status == .notFound ? .unprocessableContent : status
                return response
            }
        }
        routes.post("groups/:id/invitations/:invitation/revoke") { _, context in
            let id: GroupID = try context.webID("id")
            try await groups.revoke(
                id, invitation: try context.webID("invitation"), by: try context.requireWebViewer())
            return WebPages.redirect(to: "/groups/\(id)/settings?done=revoked")
        }
        routes.get("groups/:id/delete") { _, context in
            let viewer = try context.requireWebViewer()
            let group = try await groups.get(try context.webID("id"), viewer: viewer)
            guard GroupPolicy.allows(.delete, standing: group.standing, access: group.access) else {
                throw SpotterError.forbidden("Only the group's owner may do this.")
            }
            let view = WebPostEditController.ConfirmView(
                question: "Delete \(group.name)?",
                consequence: "Its posts and photos go with it, for every member. This can't be undone.", quote: nil,
                action: "/groups/\(group.id)/delete", back: "/groups/\(group.id)/settings")
            return try await pages.page(
                "confirm_delete", title: "Delete \(group.name)?", content: view, context: context, nav: .groups)
        }
        routes.post("groups/:id/delete") { _, context in
            try await groups.delete(try context.webID("id"), by: try context.requireWebViewer())
            return WebPages.redirect(to: "/groups?done=deleted")
        }
        return routes
    }

    /// Sets or removes the group's photo; a refusal about the photo is shown beside its form.
    private func savingAvatar(
        _ id: GroupID, done: String, context: AppRequestContext, _ change: () async throws -> Void
    ) async throws -> Response {
        do {
            try await change()
            return WebPages.redirect(to: "/groups/\(id)/settings?done=\(done)")
        } catch {
            guard let (status, messages) = WebErrors.explain(error), status != .forbidden, status != .notFound
            else { throw error }
            var response = try await settings(id, avatarError: messages.joined(separator: " "), context: context)
            response.status = status
            return response
        }
    }

    static let notices = [
        "saved": "Saved.",
        "avatar": "The group's photo is saved.",
        "avatar-removed": "The group's photo is removed.",
        "invited": "Invitation sent. They can join from their Groups page.",
        "revoked": "The invitation no longer works.",
    ]

    private func settings(
        _ id: GroupID, form: GroupFormView? = nil, newLink: String? = nil, notice: String? = nil,
        maxUses: String = "", username: String = "", inviteError: String? = nil, avatarError: String? = nil,
        context: AppRequestContext
    ) async throws -> Response {
        let viewer = try context.requireWebViewer()
        let group = try await groups.get(id, viewer: viewer)
        guard GroupPolicy.allows(.editSettings, standing: group.standing, access: group.access) else {
            throw SpotterError.forbidden("Only the group's admins may change its settings.")
        }
        let now = clock.now
        let timeZone = WebDisplay(viewer: viewer).timeZone
        let invitations = try await groups.invitations(id, by: viewer).map { invitation in
            let open =
                !invitation.revoked && (invitation.expiresAt.map { $0 > now } ?? true)
                && (invitation.maxUses.map { invitation.uses < $0 } ?? true)
            let state =
                invitation.revoked
                ? "Revoked"
                : !open
                    ? "Expired or used up"
                    : invitation.expiresAt.map { "Until \(Self.date($0, timeZone: timeZone))" } ?? "Open"
            return InvitationView(
                id: invitation.id.description, kind: invitation.invitee.map { "@\($0.username)" } ?? "Link",
                isLink: invitation.invitee == nil, byName: invitation.invitedBy.displayName,
                usesLabel: invitation.maxUses.map { "\(invitation.uses) of \($0) uses" }
                    ?? WebFormat.count(invitation.uses, "use"),
                stateLabel: state, isOpen: open)
        }
        let view = SettingsView(
            group: GroupView(group, viewer: viewer),
            form: form
                ?? GroupFormView(
                    name: group.name, description: group.description, access: group.access, timeZone: group.timeZone),
            newLink: newLink, invitations: invitations, hasInvitations: !invitations.isEmpty,
            lifetimes: [("86400", "1 day"), ("604800", "7 days"), ("2592000", "30 days")].map {
                WebSettingsController.Choice(value: $0.0, label: $0.1, selected: $0.0 == "604800")
            }, maxUses: maxUses, username: username, inviteError: inviteError, inviteInvalid: inviteError != nil,
            notice: notice, avatarError: avatarError, hasAvatar: group.avatarURL != nil)
        return try await pages.page(
            "group_settings", title: "Settings of \(group.name)", content: view, context: context, nav: .groups)
    }

    private static func date(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "d MMM yyyy"
        return formatter.string(from: date)
    }
}
