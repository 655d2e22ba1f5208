import Foundation
import HTTPTypes
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Accounts over HTTP")
struct AccountAPITests {
    @Test("signup, then signin, then /me", arguments: StorageBackend.available)
    func signupSigninMe(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given
            let signup = try await api.signup("ana_lifts")
            #expect(signup.tokenType == "Bearer")
            #expect(signup.expiresIn == 900)
            // When
            let signin = try await api.signin("ANA_LIFTS@example.com")
            // Then
            #expect(signin.status == .ok)
            let tokens = try signin.decode(TokenResponse.self)
            #expect(tokens.user.id == signup.user.id)
            let me = try await api.call(.get, "/api/v1/me", token: tokens.accessToken)
            #expect(me.status == .ok)
            let account = try me.decode(Account.self)
            #expect(account.username == "ana_lifts")
            #expect(account.email == "ana_lifts@example.com")
        }
    }

    @Test("the Authorization header's scheme is read in any case and spaces or tabs around the token are skipped")
    func authorizationHeaderForms() async throws {
        try await TestApp.run(.sqlite) { api in
            let token = try await api.signup("ana_lifts").accessToken
            for value in ["Bearer \(token)", "bearer \(token)", "BEARER  \(token)\t", "Bearer \t\(token) "] {
                let me = try await api.call(.get, "/api/v1/me", headers: [.authorization: value])
                #expect(me.status == .ok, "\(value.debugDescription)")
            }
            for value in ["Basic \(token)", "Bearer", "Bearer  ", "Bearer \(token)x", token] {
                let me = try await api.call(.get, "/api/v1/me", headers: [.authorization: value])
                #expect(me.status == .unauthorized, "\(value.debugDescription)")
            }
        }
    }

    @Test("signup names every invalid field", arguments: StorageBackend.available)
    func signupValidation(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let response = try await api.call(
                .post, "/api/v1/auth/signup",
                body: SignupRequest(email: "not-an-email", username: "a!", password: "short"))
            #expect(response.status == .unprocessableContent)
            let fields = try response.problem().errors?.map(\.field)
            #expect(fields == ["email", "username", "password"])
        }
    }

    @Test("usernames and emails are unique regardless of case", arguments: StorageBackend.available)
    func signupConflicts(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            _ = try await api.signup("ana")
            let sameName = try await api.call(
                .post, "/api/v1/auth/signup",
                body: SignupRequest(email: "other@example.com", username: "ANA", password: "correct horse battery"))
            #expect(sameName.status == .conflict)
            #expect(try sameName.problem().errors?.first?.field == "username")
            let sameEmail = try await api.call(
                .post, "/api/v1/auth/signup",
                body: SignupRequest(email: "Ana@Example.com", username: "bea", password: "correct horse battery"))
            #expect(sameEmail.status == .conflict)
            #expect(try sameEmail.problem().errors?.first?.field == "email")
        }
    }

    @Test("a wrong password and an unknown account get the same 401", arguments: StorageBackend.available)
    func signinFailures(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            _ = try await api.signup("ana")
            let wrong = try await api.signin("ana", password: "wrong password!")
            let unknown = try await api.signin("nobody", password: "wrong password!")
            #expect(wrong.status == .unauthorized)
            #expect(unknown.status == .unauthorized)
            #expect(try wrong.problem().detail == unknown.problem().detail)
        }
    }

    @Test("a refresh rotates the pair and the new tokens work", arguments: StorageBackend.available)
    func refreshRotation(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given
            let first = try await api.signup("ana")
            // When
            let refreshed = try await api.call(
                .post, "/api/v1/auth/refresh", body: RefreshRequest(refreshToken: first.refreshToken))
            // Then
            #expect(refreshed.status == .ok)
            let second = try refreshed.decode(TokenResponse.self)
            #expect(second.accessToken != first.accessToken)
            #expect(second.refreshToken != first.refreshToken)
            #expect(try await api.call(.get, "/api/v1/me", token: second.accessToken).status == .ok)
            let third = try await api.call(
                .post, "/api/v1/auth/refresh", body: RefreshRequest(refreshToken: second.refreshToken))
            #expect(third.status == .ok)
        }
    }

    @Test("a reused refresh token revokes the whole family", arguments: StorageBackend.available)
    func refreshReuseRevokesFamily(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given a login that refreshed once, and a second login of the same account
            let first = try await api.signup("ana")
            let otherLogin = try await api.signin("ana").decode(TokenResponse.self)
            let second = try await api.call(
                .post, "/api/v1/auth/refresh", body: RefreshRequest(refreshToken: first.refreshToken)
            ).decode(TokenResponse.self)
            // When the spent refresh token is presented again (a thief, or the owner after a theft)
            let reuse = try await api.call(
                .post, "/api/v1/auth/refresh", body: RefreshRequest(refreshToken: first.refreshToken))
            // Then it is refused, and every token of that login is dead
            #expect(reuse.status == .unauthorized)
            #expect(try await api.call(.get, "/api/v1/me", token: second.accessToken).status == .unauthorized)
            let stolen = try await api.call(
                .post, "/api/v1/auth/refresh", body: RefreshRequest(refreshToken: second.refreshToken))
            #expect(stolen.status == .unauthorized)
            // But the other login is untouched
            #expect(try await api.call(.get, "/api/v1/me", token: otherLogin.accessToken).status == .ok)
        }
    }

    @Test("an expired access token gets 401, and the refresh token still works", arguments: StorageBackend.available)
    func expiredAccessToken(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let tokens = try await api.signup("ana")
            api.clock.advance(by: 15 * 60 + 1)
            let me = try await api.call(.get, "/api/v1/me", token: tokens.accessToken)
            #expect(me.status == .unauthorized)
            #expect(me.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            #expect(try me.problem().detail?.contains("expired") == true)
            let refreshed = try await api.call(
                .post, "/api/v1/auth/refresh", body: RefreshRequest(refreshToken: tokens.refreshToken))
            #expect(refreshed.status == .ok)
        }
    }

    @Test("a refresh token expires after 30 days", arguments: StorageBackend.available)
    func expiredRefreshToken(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let tokens = try await api.signup("ana")
            api.clock.advance(by: 30 * 24 * 3600 + 1)
            let refreshed = try await api.call(
                .post, "/api/v1/auth/refresh", body: RefreshRequest(refreshToken: tokens.refreshToken))
            #expect(refreshed.status == .unauthorized)
        }
    }

    @Test("signout ends this login and only this one", arguments: StorageBackend.available)
    func signout(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let phone = try await api.signup("ana")
            let laptop = try await api.signin("ana").decode(TokenResponse.self)
            #expect(try await api.call(.post, "/api/v1/auth/signout", token: phone.accessToken).status == .noContent)
            #expect(try await api.call(.get, "/api/v1/me", token: phone.accessToken).status == .unauthorized)
            let refresh = try await api.call(
                .post, "/api/v1/auth/refresh", body: RefreshRequest(refreshToken: phone.refreshToken))
            #expect(refresh.status == .unauthorized)
            #expect(try await api.call(.get, "/api/v1/me", token: laptop.accessToken).status == .ok)
        }
    }

    @Test("a refresh token is not an access token, and no token is no access", arguments: StorageBackend.available)
    func tokenKinds(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let tokens = try await api.signup("ana")
            #expect(try await api.call(.get, "/api/v1/me", token: tokens.refreshToken).status == .unauthorized)
            #expect(try await api.call(.get, "/api/v1/me").status == .unauthorized)
            #expect(try await api.call(.get, "/api/v1/me", token: "spa_made_up").status == .unauthorized)
        }
    }

    @Test("PATCH /me changes the display name and checks it", arguments: StorageBackend.available)
    func updateMe(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let tokens = try await api.signup("ana")
            let updated = try await api.call(
                .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: " Ana R. "))
            #expect(try updated.decode(Account.self).displayName == "Ana R.")
            let me = try await api.call(.get, "/api/v1/me", token: tokens.accessToken).decode(Account.self)
            #expect(me.displayName == "Ana R.")
            let bad = try await api.call(
                .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: "  "))
            #expect(bad.status == .unprocessableContent)
            #expect(try bad.problem().errors?.first?.field == "display_name")
        }
    }
}
