import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app's settings and search")
struct WebSettingsTests {
    @Test(
        "profile and notification settings, quiet hours included, save through the services",
        arguments: StorageBackend.available)
    func settings(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var fay = WebBrowser(api)
            try await fay.signUp("fay")
            #expect(try await fay.get("/settings").status == .ok)
            // When Fay edits her profile
            let saved = try await fay.post(
                "/settings/profile", [("display_name", "Fay <Lifts>"), ("bio", "Squats & naps"), ("privacy", "public")])
            #expect(saved.headers[.location] == "/settings?saved=1")
            let profile = try await fay.get("/u/fay")
            #expect(profile.text.contains("Fay &lt;Lifts&gt;"))
            #expect(profile.text.contains("Squats &amp; naps"))
            // And sets quiet hours and turns kudos off
            try await fay.get("/settings")
            let quiet = try await fay.post(
                "/settings/notifications",
                [
                    ("in_app", "on"), ("badge", "on"), ("type_kudos", "disabled"), ("quiet_enabled", "on"),
                    ("quiet_start", "21:30"), ("quiet_end", "07:00"), ("quiet_time_zone", "Europe/Berlin"),
                ])
            #expect(quiet.status == .seeOther)
            let token = try await api.signin("fay").decode(TokenResponse.self).accessToken
            let preferences = try await api.call(.get, "/api/v1/notifications/preferences", token: token)
                .decode(NotificationPreferences.self)
            #expect(
                preferences.quietHours
                    == QuietHours(enabled: true, start: "21:30", end: "07:00", timeZone: "Europe/Berlin"))
            #expect(preferences.setting(for: .kudos) == .disabled)
            #expect(!preferences.push)
            #expect(!preferences.email)
            // And a bad time is refused with the service's words, changing nothing
            try await fay.get("/settings")
            let bad = try await fay.post(
                "/settings/notifications", [("quiet_start", "25:99"), ("quiet_time_zone", "Mars/Base")])
            #expect(bad.status == .unprocessableContent)
            #expect(bad.text.contains("must be a time as HH:mm"))
        }
    }

    @Test("search finds people and posts, as a page and as a fragment for typing", arguments: StorageBackend.available)
    func search(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var gus = WebBrowser(api)
            try await gus.signUp("gustavo")
            try await gus.get("/compose")
            try await gus.post("/posts", [("kind", "note"), ("text", "Deadlift day #powerlifting")])
            var visitor = WebBrowser(api)
            let page = try await visitor.get("/search?q=gust")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"href="/u/gustavo""#))
            #expect(page.text.contains(#"<form method="get" action="/search""#))
            let fragment = try await visitor.get("/search?q=powerlifting&fragment=1")
            #expect(fragment.text.hasPrefix(#"<div id="search-results""#))
            #expect(fragment.text.contains("#powerlifting"))
            #expect(!fragment.text.contains("<html"))
            #expect(try await visitor.get("/search").status == .ok)
        }
    }
}
