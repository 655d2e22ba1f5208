import Foundation
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// A socket belongs to the login that opened it: revoking the login closes it at once.
@Suite("Realtime sockets and logins")
struct RealtimeLoginTests {
    @Test("signing out closes the login's socket; other logins' sockets stay", arguments: StorageBackend.available)
    func signout(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            // Given Ana signed in twice, a socket on each login
            let first = try await api.signup("ana")
            let second = try await api.signin("ana").decode(TokenResponse.self)
            let closing = try await PhoenixTestClient.connect(port: port, token: first.accessToken)
            let staying = try await PhoenixTestClient.connect(port: port, token: second.accessToken)
            _ = try await closing.join("user:\(first.user.id)", ref: "1")
            _ = try await staying.join("community:feed", ref: "1")
            // When the first login signs out
            let out = try await api.call(.post, "/api/v1/auth/signout", token: first.accessToken)
            #expect(out.status.code < 300)
            // Then its socket is closed with the reason, and REST refuses its token
            let frame = try await closing.waitForClose()
            #expect(frame?.reason == "login revoked")
            #expect(try await api.call(.get, "/api/v1/me", token: first.accessToken).status == .unauthorized)
            // And the other login's socket still hears new posts
            let post = try await api.post(second.accessToken, "still here #gym")
            try await staying.waitForPost(post, on: "community:feed")
            await staying.close()
        }
    }

    @Test(
        "a password change closes the other logins' sockets and keeps the caller's", arguments: StorageBackend.available
    )
    func passwordChange(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let kept = try await api.signup("ana")
            let other = try await api.signin("ana").decode(TokenResponse.self)
            let keptSocket = try await PhoenixTestClient.connect(port: port, token: kept.accessToken)
            let otherSocket = try await PhoenixTestClient.connect(port: port, token: other.accessToken)
            _ = try await keptSocket.join("community:feed", ref: "1")
            _ = try await otherSocket.join("community:feed", ref: "1")
            let change = try await api.call(
                .post, "/api/v1/auth/password", token: kept.accessToken,
                body: ChangePasswordRequest(
                    currentPassword: "correct horse battery", newPassword: "a new long passphrase"))
            #expect(change.status.code < 300)
            #expect(try await otherSocket.waitForClose()?.reason == "login revoked")
            let post = try await api.post(kept.accessToken, "new password #gym")
            try await keptSocket.waitForPost(post, on: "community:feed")
            await keptSocket.close()
        }
    }

    @Test("a reused refresh token closes its login's socket", arguments: StorageBackend.available)
    func refreshReuse(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.signup("ana")
            let socket = try await PhoenixTestClient.connect(port: port, token: ana.accessToken)
            _ = try await socket.join("community:feed", ref: "1")
            let refresh = RefreshRequest(refreshToken: ana.refreshToken)
            #expect(try await api.call(.post, "/api/v1/auth/refresh", body: refresh).status == .ok)
            // The same refresh token again: someone else holds it, so the login ends.
            #expect(try await api.call(.post, "/api/v1/auth/refresh", body: refresh).status == .unauthorized)
            #expect(try await socket.waitForClose()?.reason == "login revoked")
        }
    }

    @Test("suspending an account closes all of its sockets", arguments: StorageBackend.available)
    func suspension(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.signup("ana")
            let socket = try await PhoenixTestClient.connect(port: port, token: ana.accessToken)
            _ = try await socket.join("feed:\(ana.user.id)", ref: "1")
            try await api.suspend("ana")
            #expect(try await socket.waitForClose()?.reason == "login revoked")
        }
    }
}
