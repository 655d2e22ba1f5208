import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// `POST /api/v1/auth/password`: proof, other logins signed out, and the security alert on every channel.
@Suite("Password change")
struct PasswordChangeTests {
    static func change(
        _ api: APIClient, _ token: String, from current: String, to new: String
    ) async throws
        -> TestResponse
    {
        try await api.call(
            .post, "/api/v1/auth/password", token: token,
            body: ChangePasswordRequest(currentPassword: current, newPassword: new))
    }

    @Test(
        "a wrong or weak request changes nothing; a right one signs out other logins and alerts the owner by push and email",
        arguments: StorageBackend.available)
    func changePassword(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let phone = try await api.signup("ana")
            _ = try await api.call(
                .post, "/api/v1/notifications/devices", token: phone.accessToken,
                body: DeviceRegistration(token: NotificationDeliveryTests.phone))
            // The same person on a laptop: a second login, whose tokens the change must end.
            let laptop = try await api.signin("ana").decode(TokenResponse.self)

            let wrong = try await Self.change(api, phone.accessToken, from: "not my password", to: "a new long one")
            #expect(wrong.status == .unprocessableContent)
            #expect(try wrong.problem().errors?.map(\.field) == ["current_password"])
            let weak = try await Self.change(api, phone.accessToken, from: "correct horse battery", to: "short")
            #expect(try weak.problem().errors?.map(\.field) == ["new_password"])
            #expect(try await api.signin("ana").status == .ok, "nothing changed yet")
            let noToken = try await api.call(
                .post, "/api/v1/auth/password",
                body: ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "a new long one"))
            #expect(noToken.status == .unauthorized)

            let changed = try await Self.change(
                api, phone.accessToken, from: "correct horse battery", to: "a new long one")
            #expect(changed.status == .noContent)
            #expect(try await api.signin("ana").status == .unauthorized, "the old password is gone")
            #expect(try await api.signin("ana", password: "a new long one").status == .ok)
            #expect(try await api.call(.get, "/api/v1/me", token: phone.accessToken).status == .ok, "this login stays")
            #expect(try await api.call(.get, "/api/v1/me", token: laptop.accessToken).status == .unauthorized)
            let refresh = try await api.call(
                .post, "/api/v1/auth/refresh", body: RefreshRequest(refreshToken: laptop.refreshToken))
            #expect(refresh.status == .unauthorized, "the other login can't come back with its refresh token")

            let alert = try await NotificationsAPITests.inbox(api, phone.accessToken).first {
                $0.type == .securityPasswordChanged
            }
            #expect(alert?.text.hasPrefix("Your password was changed.") == true)
            // Quiet hours do not hold a security alert; it goes by push and by email at once.
            _ = try await api.call(
                .put, "/api/v1/notifications/preferences", token: phone.accessToken,
                json: #"{"quiet_hours":{"enabled":true,"start":"00:00","end":"23:59","time_zone":"UTC"}}"#)
            let transport = RecordingTransport()
            let runner = DeliveryRunner(
                storage: api.storage, clock: api.clock, transport: transport, logger: StorageBackend.logger)
            #expect(try await runner.runDue() >= 1)
            let alerts = transport.sent.filter { $0.message.body.hasPrefix("Your password was changed.") }
            let email = DeliveryTarget.email(address: "ana@example.com")
            #expect(
                alerts.map(\.target.key).sorted()
                    == [DeliveryTarget.apns(token: NotificationDeliveryTests.phone).key, email.key].sorted())
            #expect(alerts.first { $0.target == email }?.message.subject.contains("password") == true)
            #expect(!transport.sent.contains { $0.message.text.contains("a new long one") }, "no secret leaves")
        }
    }
}
