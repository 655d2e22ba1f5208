import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/settings`: the profile (name, bio, privacy, units, time zone), notification preferences with quiet
/// hours and this browser's Web Push subscription (made through `WebPushSubscriptionController`), the password,
/// the email and the linked Nostr keys (changed through `WebNostrController`). Each form hands its values to the
/// services, which check every field before changing anything.
struct WebSettingsController {
    let accounts: AccountService
    let links: AccountLinkService
    let notifications: NotificationService
    let media: MediaService
    let nostr: NostrAccountService
    let pages: WebPages
    /// The channels this server can deliver on; the others show as not set up.
    let channels: WebChannels

    struct SettingsView {
        /// The avatar as it shows now (initials without one).
        let avatar: ViewerView
        let hasAvatar: Bool
        let displayName: String
        let bio: String
        let privacy: [Choice]
        let units: [Choice]
        let timeZones: [Choice]
        /// The profile is still on UTC, the default: the page's script offers the browser's zone instead.
        let suggestBrowserZone: Bool
        let quietTimeZones: [Choice]
        let email: String
        /// The new address typed in the email form, kept when the form comes back with an error.
        let newEmail: String
        let hasPassword: Bool
        let canSendMail: Bool
        let channels: [Toggle]
        let types: [TypeRow]
        /// The hourly cap, which the help beside the choices names.
        let maxPerHour: Int
        let quietEnabled: Bool
        let quietStart: String
        let quietEnd: String
        let quietTimeZone: String
        /// What concerns no one field, at the top of the page.
        let errors: [String]
        let hasErrors: Bool
        /// Each field's problem, under its input (`FormProblems`).
        let fieldErrors: FieldErrors
        let saved: String?
        let nostrKeys: [NostrKey]
        let hasNostrKeys: Bool
        /// Admins get a way to the admin page (`WebAdminController`).
        let isAdmin: Bool
        /// The VAPID public key "This browser" subscribes with (`web-push.js`); without one the control is left out.
        let webPushKey: String?
        /// Whether the person's pushes are on at all, so the control can say when a subscription would get nothing.
        let pushOn: Bool
    }

    /// The settings forms' inputs that can be refused, each with its problem when it was. The page is long and
    /// comes back at its top, so the problems are listed there too, each a link to its input (as GOV.UK's
    /// error summary does).
    struct FieldErrors {
        struct Summary {
            let input: String
            let message: String
        }

        let displayName: String?
        let bio: String?
        let timeZone: String?
        let currentPassword: String?
        let newPassword: String?
        let email: String?
        let emailPassword: String?
        let summary: [Summary]
        let hasAny: Bool

        init(_ problems: FormProblems?) {
            let fields = problems?.fields ?? [:]
            displayName = fields["display_name"]
            bio = fields["bio"]
            timeZone = fields["time_zone"]
            currentPassword = fields["current_password"]
            newPassword = fields["new_password"]
            email = fields["email"]
            emailPassword = fields["password"]
            summary = Self.inputIDs.compactMap { field, input in
                fields[field].map { Summary(input: input, message: $0) }
            }
            hasAny = !summary.isEmpty
        }

        /// Each field's input on the page, in the page's order.
        static let inputIDs = [
            ("display_name", "display-name"), ("bio", "bio"), ("time_zone", "time-zone"),
            ("current_password", "current-password"), ("new_password", "new-password"), ("email", "new-email"),
            ("password", "email-password"),
        ]
    }

    /// The inputs `FieldErrors` marks, as a sentence names them.
    static let inputs = [
        "display_name": "The display name", "bio": "The bio", "time_zone": "The time zone",
        "current_password": "The current password", "new_password": "The new password", "email": "The email",
        "password": "The password",
    ]

    struct Choice {
        let value: String
        let label: String
        let selected: Bool
    }

    struct Toggle {
        let name: String
        let label: String
        let on: Bool
        /// Not set up on this server: shown disabled, never ticked.
        let unavailable: Bool
    }

    struct TypeRow {
        let name: String
        let label: String
        let choices: [Choice]
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("settings") { request, context in
            let saved = request.uri.queryParameters["saved"].map { Self.savedMessages[String($0)] ?? "Saved." }
            return try await settings(problems: nil, saved: saved, context: context)
        }
        routes.post("settings/profile") { _, context in
            let form = context.web.form
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            let request = UpdateAccountRequest(
                displayName: form["display_name"] ?? "", bio: form.all("bio").first ?? "",
                units: form["units"].flatMap(Units.init(rawValue:)), timeZone: form["time_zone"],
                privacy: form["privacy"].flatMap(Privacy.init(rawValue:)))
            return try await saving(context) { _ = try await accounts.update(session, with: request) }
        }
        routes.post("settings/avatar") { _, context in
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            return try await saving(context, as: "avatar") {
                let id = try await WebAvatarUpload(media: media).mediaID(context, owner: session.account)
                _ = try await accounts.update(session, with: UpdateAccountRequest(avatarMediaID: id))
            }
        }
        routes.post("settings/avatar/remove") { _, context in
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            return try await saving(context, as: "avatar-removed") {
                _ = try await accounts.update(session, with: UpdateAccountRequest(avatarURL: ""))
            }
        }
        routes.post("settings/password") { _, context in
            let form = context.web.form
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            let request = ChangePasswordRequest(
                currentPassword: form.all("current_password").first ?? "",
                newPassword: form.all("new_password").first ?? "")
            return try await saving(context, as: "password") {
                try await accounts.changePassword(session, with: request)
            }
        }
        routes.post("settings/email") { _, context in
            let form = context.web.form
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            let request = EmailChangeRequest(email: form["email"] ?? "", password: form.all("password").first ?? "")
            return try await saving(context, as: "email", newEmail: request.email) {
                try await links.requestEmailChange(session, with: request)
            }
        }
        routes.post("settings/notifications") { _, context in
            let viewer = try context.requireWebViewer()
            let form = context.web.form
            var preferences = try await notifications.preferences(viewer)
            preferences.push = form["push"] != nil && channels.push
            preferences.inApp = form["in_app"] != nil
            preferences.email = form["email"] != nil && channels.email
            preferences.badge = form["badge"] != nil
            for type in NotificationType.allCases {
                if let setting = form["type_\(type.rawValue)"].flatMap(NotificationSetting.init(rawValue:)) {
                    preferences.types[type] = setting
                }
            }
            preferences.quietHours.enabled = form["quiet_enabled"] != nil
            preferences.quietHours.start = form["quiet_start"] ?? preferences.quietHours.start
            preferences.quietHours.end = form["quiet_end"] ?? preferences.quietHours.end
            preferences.quietHours.timeZone = form["quiet_time_zone"]  // empty: the profile's zone
            return try await saving(context) { _ = try await notifications.updatePreferences(viewer, to: preferences) }
        }
        return routes
    }

    /// Runs a change; on success back to the page (POST/redirect/GET), on invalid input the page again with
    /// the service's words.
    private func saving(
        _ context: AppRequestContext, as what: String = "1", newEmail: String = "",
        _ change: () async throws -> Void
    ) async throws -> Response {
        do {
            try await change()
            return WebPages.redirect(to: "/settings?saved=\(what)")
        } catch {
            guard let problems = FormProblems(error, inputs: Self.inputs) else { throw error }
            var response = try await settings(problems: problems, saved: nil, newEmail: newEmail, context: context)
            response.status = problems.status
            return response
        }
    }

    static let savedMessages = [
        "1": "Saved.",
        "avatar": "Your photo is saved.",
        "avatar-removed": "Your photo is removed.",
        "password": "Your password is changed. Every other device was signed out.",
        "email": "We mailed a link to your new address. Your email changes when you open it.",
        "email-confirmed": "Your new email is confirmed.",
        "nostr-linked": "Your Nostr key is linked: you can sign in with it.",
        "nostr-unlinked": "The Nostr key is unlinked: it no longer signs in to this account.",
    ]

    private func settings(
        problems: FormProblems?, saved: String?, newEmail: String = "", context: AppRequestContext
    ) async throws -> Response {
        let viewer = try context.requireWebViewer()
        let preferences = try await notifications.preferences(viewer)
        let nostrKeys = try await nostr.keys(context.requireIdentity())
        let quiet = preferences.quietHours
        let zones = TimeZone.knownTimeZoneIdentifiers.sorted()
        var avatar = ViewerView(viewer)
        avatar.avatarSize = "large"
        let view = SettingsView(
            avatar: avatar, hasAvatar: viewer.profile.avatarURL != nil, displayName: viewer.displayName,
            bio: viewer.profile.bio,
            privacy: Privacy.allCases.map {
                Choice(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0 == viewer.profile.privacy)
            },
            units: [
                Choice(value: Units.kg.rawValue, label: "Kilograms (kg)", selected: viewer.profile.units == .kg),
                Choice(value: Units.lb.rawValue, label: "Pounds (lb)", selected: viewer.profile.units == .lb),
            ],
            timeZones: Self.zoneChoices(zones, selected: viewer.profile.timeZone),
            suggestBrowserZone: viewer.profile.timeZone == "UTC",
            quietTimeZones: [Choice(value: "", label: "Same as my profile", selected: quiet.timeZone == nil)]
                + Self.zoneChoices(zones, selected: quiet.timeZone),
            email: viewer.email ?? "", newEmail: newEmail, hasPassword: viewer.passwordHash != nil,
            canSendMail: links.canSendMail,
            channels: [
                Toggle(name: "in_app", label: "In the app", on: preferences.inApp, unavailable: false),
                Toggle(
                    name: "push", label: "Push to my devices", on: preferences.push && channels.push,
                    unavailable: !channels.push),
                Toggle(
                    name: "email", label: "Email", on: preferences.email && channels.email,
                    unavailable: !channels.email),
                Toggle(name: "badge", label: "Unread badge", on: preferences.badge, unavailable: false),
            ],
            types: NotificationType.allCases.filter { !$0.isSecurity }.map { type in
                // Only the choices that do something different for the type, the one in force among them.
                let current = type.distinct(preferences.setting(for: type))
                return TypeRow(
                    name: "type_\(type.rawValue)", label: Self.label(type),
                    choices: type.distinctSettings.map {
                        Choice(value: $0.rawValue, label: Self.label($0, preferences), selected: $0 == current)
                    })
            },
            maxPerHour: preferences.maxPerHour, quietEnabled: quiet.enabled, quietStart: quiet.start,
            quietEnd: quiet.end,
            quietTimeZone: quiet.timeZone ?? viewer.profile.timeZone, errors: problems?.messages ?? [],
            hasErrors: problems?.hasMessages ?? false, fieldErrors: FieldErrors(problems), saved: saved,
            nostrKeys: nostrKeys, hasNostrKeys: !nostrKeys.isEmpty, isAdmin: AdminAuthority.account(viewer).isAllowed,
            webPushKey: channels.webPushKey, pushOn: preferences.push && channels.push)
        return try await pages.page("settings", title: "Settings", content: view, context: context, nav: .profile)
    }
}

extension WebSettingsController {
    static func zoneChoices(_ zones: [String], selected: String?) -> [Choice] {
        var choices = zones.map {
            Choice(value: $0, label: $0.replacingOccurrences(of: "_", with: " "), selected: $0 == selected)
        }
        // An old profile may hold a zone this system doesn't list; keep it rather than lose it on save.
        if let selected, !selected.isEmpty, !zones.contains(selected) {
            choices.insert(Choice(value: selected, label: selected, selected: true), at: 0)
        }
        return choices
    }

    /// What a type of notification is about, as a person would say it.
    static func label(_ type: NotificationType) -> String {
        switch type {
        case .follow: "Someone follows you"
        case .followRequest: "Someone asks to follow you"
        case .kudos: "Kudos on your workouts"
        case .comment: "Comments on your workouts"
        case .reply: "Replies to your comments"
        case .mention: "Someone mentions you"
        case .personalRecord: "Your personal records"
        case .streakAtRisk: "Your streak is about to end"
        case .weeklySummary: "Your week in training"
        case .securityNewDevice: "Sign-in from a new device"
        case .securityPasswordChanged: "Password changed"
        case .securityEmailChanged: "Email changed by an admin"
        case .groupPost: "New posts in my groups"
        case .groupInvitation: "Invitations to groups"
        case .groupJoinRequest: "Requests to join groups I run"
        case .groupRequestAccepted: "My requests to join accepted"
        case .groupRemoved: "Removed from a group"
        case .groupBanned: "Banned from a group"
        case .groupAwaitingKeys: "Members waiting for keys in encrypted groups I run"
        case .guardianInvitation: "Invitations to look after a child"
        case .followRequestApproved: "My follow requests approved"
        }
    }

    /// How often, in words (see `NotificationSetting`), with the person's own hourly cap and batching window:
    /// each choice says what it does that the others don't, short enough to fit a phone's select.
    static func label(_ setting: NotificationSetting, _ preferences: NotificationPreferences) -> String {
        switch setting {
        case .disabled: "Off"
        case .enabled: "Up to \(preferences.maxPerHour) an hour"
        case .batched:
            preferences.batchingWindowMinutes == 1
                ? "Grouped every minute" : "Grouped every \(preferences.batchingWindowMinutes) min"
        case .immediate: "Right away, every time"
        case .daily: "Daily digest"
        case .weekly: "Weekly digest, Mondays"
        }
    }
}

/// The channels this server can deliver on, as `DeliveryConfiguration` decides.
struct WebChannels: Sendable {
    let push: Bool
    let email: Bool
    /// The VAPID public key browsers subscribe with; `nil` when Web Push is not set up.
    let webPushKey: String?

    init(_ delivery: DeliveryConfiguration) {
        push = delivery.offersPush
        email = delivery.offersEmail
        webPushKey = delivery.webPush?.publicKeyBase64URL
    }
}
