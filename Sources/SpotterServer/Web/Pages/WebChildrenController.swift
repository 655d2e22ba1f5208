import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/settings/children`: the child profiles a person manages (MyTube's parent-only model). A child has a
/// name and a birth year and nothing public; only its guardians see this page's entries. A guardian adds a
/// child, invites a co-guardian, steps down, or deletes the child and every post that names it. Invitations to
/// manage someone else's child are answered here too.
struct WebChildrenController {
    let children: ChildProfileService
    let media: MediaService
    let pages: WebPages
    let clock: any WallClock

    struct ChildrenView {
        let children: [ChildView]
        let hasChildren: Bool
        let invitations: [ChildView]
        let hasInvitations: Bool
        let errors: [String]
        let hasErrors: Bool
        let name: String
        let birthYear: String
        let thisYear: Int
        let earliestYear: Int
        let notice: String?
    }

    struct ChildView {
        let id: String
        let name: String
        let birthYear: Int
        let guardians: String
        let invited: String?
        let canStepDown: Bool
        /// A signed URL: only guardians get one (`ChildProfileService`).
        let avatarURL: String?
        let hasAvatar: Bool
        let initials: String
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("settings/children") { request, context in
            let notice = request.uri.queryParameters["done"].map(String.init).flatMap(Self.notices.index(forKey:))
                .map { Self.notices[$0].value }
            return try await page(context, errors: [], notice: notice)
        }
        routes.post("settings/children") { _, context in
            let viewer = try context.requireWebViewer()
            let form = context.web.form
            let name = form.all("name").first ?? ""
            let year = form["birth_year"] ?? ""
            return try await saving(context, name: name, birthYear: year, done: "added") {
                guard let birthYear = Int(year) else {
                    throw SpotterError.invalid("birth_year", "must be a year, such as \(Self.year(clock.now) - 5)")
                }
                _ = try await children.create(CreateChildProfileRequest(name: name, birthYear: birthYear), by: viewer)
            }
        }
        routes.post("settings/children/:id/guardians") { _, context in
            let viewer = try context.requireWebViewer()
            let id: ChildProfileID = try context.webID("id")
            let username = context.web.form["username"] ?? ""
            return try await saving(context, done: "invited") {
                _ = try await children.inviteGuardian(id, username: username, by: viewer)
            }
        }
        routes.post("settings/children/:id/avatar") { _, context in
            let viewer = try context.requireWebViewer()
            let id: ChildProfileID = try context.webID("id")
            return try await saving(context, done: "avatar") {
                let upload = try await WebAvatarUpload(media: media).mediaID(context, owner: viewer)
                _ = try await children.update(id, with: UpdateChildProfileRequest(avatarMediaID: upload), by: viewer)
            }
        }
        routes.post("settings/children/:id/avatar/remove") { _, context in
            let viewer = try context.requireWebViewer()
            let id: ChildProfileID = try context.webID("id")
            return try await saving(context, done: "avatar-removed") {
                _ = try await children.update(id, with: UpdateChildProfileRequest(removeAvatar: true), by: viewer)
            }
        }
        routes.post("settings/children/:id/step-down") { _, context in
            let viewer = try context.requireWebViewer()
            let id: ChildProfileID = try context.webID("id")
            return try await saving(context, done: "stepped-down") {
                try await children.removeGuardian(id, viewer.id, by: viewer)
            }
        }
        routes.post("settings/children/:id/delete") { _, context in
            let viewer = try context.requireWebViewer()
            let id: ChildProfileID = try context.webID("id")
            guard context.web.form["confirm"] == "yes" else {
                return try await page(
                    context, errors: ["Tick the box to confirm: deleting a child also deletes every post naming them."],
                    notice: nil, status: .unprocessableContent)
            }
            return try await saving(context, done: "deleted") { try await children.delete(id, by: viewer) }
        }
        routes.post("settings/children/:id/accept") { _, context in
            let viewer = try context.requireWebViewer()
            let id: ChildProfileID = try context.webID("id")
            return try await saving(context, done: "accepted") {
                try await children.answerInvitation(id, accept: true, by: viewer)
            }
        }
        routes.post("settings/children/:id/decline") { _, context in
            let viewer = try context.requireWebViewer()
            let id: ChildProfileID = try context.webID("id")
            return try await saving(context, done: "declined") {
                try await children.answerInvitation(id, accept: false, by: viewer)
            }
        }
        return routes
    }

    static let notices = [
        "added": "Child added. Only you and their other guardians see them.",
        "invited": "Invitation sent: they accept it in their own settings.",
        "stepped-down": "You no longer manage that child.",
        "deleted": "Deleted, with every post that named them.",
        "accepted": "You now manage that child too.",
        "declined": "Invitation declined.",
        "avatar": "Photo saved. Only the child's guardians see it.",
        "avatar-removed": "Photo removed.",
    ]

    /// Runs a change; back to the page on success (POST/redirect/GET), the page with the service's words and
    /// what was typed on invalid input.
    private func saving(
        _ context: AppRequestContext, name: String = "", birthYear: String = "", done: String,
        _ change: () async throws -> Void
    ) async throws -> Response {
        do {
            try await change()
            return WebPages.redirect(to: "/settings/children?done=\(done)")
        } catch {
            guard let (status, messages) = WebErrors.explain(error) else { throw error }
            return try await page(
                context, errors: messages, notice: nil, name: name, birthYear: birthYear, status: status)
        }
    }

    private func page(
        _ context: AppRequestContext, errors: [String], notice: String?, name: String = "", birthYear: String = "",
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let viewer = try context.requireWebViewer()
        let mine = try await children.mine(viewer)
        let invitations = try await children.invitations(for: viewer)
        let thisYear = Self.year(clock.now)
        let view = ChildrenView(
            children: mine.map { Self.view($0, viewer: viewer) }, hasChildren: !mine.isEmpty,
            invitations: invitations.map { Self.view($0, viewer: viewer) }, hasInvitations: !invitations.isEmpty,
            errors: errors, hasErrors: !errors.isEmpty, name: name, birthYear: birthYear, thisYear: thisYear,
            earliestYear: thisYear - ChildProfileService.maxAge, notice: notice)
        var response = try await pages.page("children", title: "Children", content: view, context: context)
        response.status = status
        return response
    }

    private static func view(_ child: ChildProfile, viewer: AccountRecord) -> ChildView {
        ChildView(
            id: child.id.description, name: child.name, birthYear: child.birthYear,
            guardians: child.guardians.map(\.displayName).joined(separator: ", "),
            invited: child.invitedGuardians.isEmpty
                ? nil : child.invitedGuardians.map(\.displayName).joined(separator: ", "),
            canStepDown: child.guardians.count > 1, avatarURL: child.avatarURL, hasAvatar: child.avatarURL != nil,
            initials: ViewerView.initials(of: child.name))
    }

    private static func year(_ date: Date) -> Int { Calendar(identifier: .gregorian).component(.year, from: date) }
}
