import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/settings`: the profile (name, bio, privacy) and notification preferences, quiet hours included.
/// Both forms hand their values to the services, which check every field before changing anything.
struct WebSettingsController {
    let accounts: AccountService
    let notifications: NotificationService
    let pages: WebPages

    struct SettingsView {
        let displayName: String
        let bio: String
        let privacy: [Choice]
        let channels: [Toggle]
        let types: [TypeRow]
        let quietEnabled: Bool
        let quietStart: String
        let quietEnd: String
        let quietTimeZone: String
        let errors: [String]
        let hasErrors: Bool
        let saved: Bool
    }

    struct Choice {
        let value: String
        let label: String
        let selected: Bool
    }

    struct Toggle {
        let name: String
        let label: String
        let on: Bool
    }

    struct TypeRow {
        let name: String
        let label: String
        let choices: [Choice]
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("settings") { request, context in
            try await settings(errors: [], saved: request.uri.queryParameters["saved"] != nil, context: context)
        }
        routes.post("settings/profile") { _, context in
            let form = context.web.form
            guard let session = context.identity else { throw SpotterError.unauthorized("Sign in first.") }
            let request = UpdateAccountRequest(
                displayName: form["display_name"] ?? "", bio: form.all("bio").first ?? "",
                privacy: form["privacy"].flatMap(Privacy.init(rawValue:)))
            return try await saving(context) { _ = try await accounts.update(session, with: request) }
        }
        routes.post("settings/notifications") { _, context in
            let viewer = try context.requireWebViewer()
            let form = context.web.form
            var preferences = try await notifications.preferences(viewer)
            preferences.push = form["push"] != nil
            preferences.inApp = form["in_app"] != nil
            preferences.email = form["email"] != nil
            preferences.badge = form["badge"] != nil
            for type in NotificationType.allCases {
                if let setting = form["type_\(type.rawValue)"].flatMap(NotificationSetting.init(rawValue:)) {
                    preferences.types[type] = setting
                }
            }
            preferences.quietHours.enabled = form["quiet_enabled"] != nil
            preferences.quietHours.start = form["quiet_start"] ?? preferences.quietHours.start
            preferences.quietHours.end = form["quiet_end"] ?? preferences.quietHours.end
            preferences.quietHours.timeZone = form["quiet_time_zone"]
            return try await saving(context) { _ = try await notifications.updatePreferences(viewer, to: preferences) }
        }
        return routes
    }

    /// Runs a change; on success back to the page (POST/redirect/GET), on invalid input the page again with
    /// the service's words.
    private func saving(
        _ context: AppRequestContext, _ change: () async throws -> Void
    ) async throws -> Response {
        do {
            try await change()
            return WebPages.redirect(to: "/settings?saved=1")
        } catch {
            guard let (status, messages) = WebErrors.explain(error) else { throw error }
            var response = try await settings(errors: messages, saved: false, context: context)
            response.status = status
            return response
        }
    }

    private func settings(errors: [String], saved: Bool, context: AppRequestContext) async throws -> Response {
        let viewer = try context.requireWebViewer()
        let preferences = try await notifications.preferences(viewer)
        let quiet = preferences.quietHours
        let view = SettingsView(
            displayName: viewer.displayName, bio: viewer.profile.bio,
            privacy: Privacy.allCases.map {
                Choice(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0 == viewer.profile.privacy)
            },
            channels: [
                Toggle(name: "in_app", label: "In the app", on: preferences.inApp),
                Toggle(name: "push", label: "Push to my devices", on: preferences.push),
                Toggle(name: "email", label: "Email", on: preferences.email),
                Toggle(name: "badge", label: "Unread badge", on: preferences.badge),
            ],
            types: NotificationType.allCases.filter { !$0.isSecurity }.map { type in
                TypeRow(
                    name: "type_\(type.rawValue)",
                    label: type.rawValue.replacingOccurrences(of: "_", with: " ").capitalized,
                    choices: NotificationSetting.allCases.map {
                        Choice(
                            value: $0.rawValue, label: $0.rawValue.capitalized,
                            selected: $0 == preferences.setting(for: type))
                    })
            },
            quietEnabled: quiet.enabled, quietStart: quiet.start, quietEnd: quiet.end,
            quietTimeZone: quiet.timeZone ?? viewer.profile.timeZone, errors: errors, hasErrors: !errors.isEmpty,
            saved: saved)
        return try await pages.page("settings", title: "Settings", content: view, context: context, nav: .profile)
    }
}
