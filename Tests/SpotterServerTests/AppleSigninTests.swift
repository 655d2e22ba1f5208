import Foundation
import HTTPTypes
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Sign in with Apple")
struct AppleSigninTests {
    static let clientID = "club.spotter.app"

    /// Runs the app with Apple sign-in pointed at a local JWKS of keys the test made.
    static func run(
        _ backend: StorageBackend, _ test: @Sendable (APIClient, AppleKeys) async throws -> Void
    ) async throws {
        let keys = try await AppleKeys()
        try await keys.serving { jwksURL in
            try await TestApp.run(
                backend,
                configure: {
                    $0.appleClientID = clientID
                    $0.appleJWKSURL = jwksURL
                }
            ) { api in try await test(api, keys) }
        }
    }

    static func signIn(
        _ api: APIClient, token: String, nonce: String = "nonce-1", username: String? = nil
    )
        async throws -> TestResponseSummary
    {
        let response = try await api.call(
            .post, "/api/v1/auth/apple",
            body: AppleSigninRequest(identityToken: token, nonce: nonce, username: username))
        return TestResponseSummary(
            status: response.status.code, tokens: try? response.decode(TokenResponse.self),
            problem: try? response.problem())
    }

    @Test("a valid ES256 or RS256 token signs in, creating the account once", arguments: StorageBackend.available)
    func validTokens(backend: StorageBackend) async throws {
        try await Self.run(backend) { api, keys in
            // Given a first sign-in, signed with the EC key
            let first = try await Self.signIn(api, token: try await keys.token(email: "ana@icloud.com"))
            #expect(first.status == 200)
            let account = try #require(first.tokens?.user)
            #expect(account.email == "ana@icloud.com")
            #expect(account.username == "ana")
            // When the same Apple ID signs in again, signed with the RSA key
            let second = try await Self.signIn(api, token: try await keys.token(kid: "rsa-1"))
            // Then it is the same account, and its tokens work
            #expect(second.tokens?.user.id == account.id)
            let me = try await api.call(.get, "/api/v1/me", token: try #require(second.tokens?.accessToken))
            #expect(me.status == .ok)
        }
    }

    @Test("Apple's verified email links to the existing account", arguments: StorageBackend.available)
    func linksByVerifiedEmail(backend: StorageBackend) async throws {
        try await Self.run(backend) { api, keys in
            let existing = try await api.signup("ana")
            let apple = try await Self.signIn(
                api, token: try await keys.token(subject: "apple-ana", email: "ANA@example.com"))
            #expect(apple.tokens?.user.id == existing.user.id)
            // An unverified email does not link: a new account is made, without that email.
            let unverified = try await Self.signIn(
                api, token: try await keys.token(subject: "apple-other", email: "ana@example.com", emailVerified: false)
            )
            #expect(unverified.status == 200)
            #expect(unverified.tokens?.user.id != existing.user.id)
            #expect(unverified.tokens?.user.email == nil)
        }
    }

    @Test("a chosen username is used, and a taken one is a 409", arguments: StorageBackend.available)
    func chosenUsername(backend: StorageBackend) async throws {
        try await Self.run(backend) { api, keys in
            _ = try await api.signup("taken")
            let ok = try await Self.signIn(api, token: try await keys.token(subject: "s1"), username: "lifter_1")
            #expect(ok.tokens?.user.username == "lifter_1")
            let clash = try await Self.signIn(api, token: try await keys.token(subject: "s2"), username: "TAKEN")
            #expect(clash.status == 409)
        }
    }

    @Test(
        "tokens with a wrong audience, issuer, nonce or signature, or expired, are refused",
        arguments: StorageBackend.available)
    func refusedTokens(backend: StorageBackend) async throws {
        try await Self.run(backend) { api, keys in
            let spoiled: [(String, String, String)] = [
                ("wrong audience", try await keys.token(audience: "com.someone.else"), "nonce-1"),
                ("expired", try await keys.token(expires: Date().addingTimeInterval(-60)), "nonce-1"),
                ("bad signature", try await keys.token(impostor: true), "nonce-1"),
                ("wrong issuer", try await keys.token(issuer: "https://evil.example"), "nonce-1"),
                ("wrong nonce", try await keys.token(), "another-nonce"),
                ("unknown key", try await keys.token(kid: "nope"), "nonce-1"),
                ("not a JWT", "abc.def", "nonce-1"),
            ]
            for (name, token, nonce) in spoiled {
                let result = try await Self.signIn(api, token: token, nonce: nonce)
                #expect(result.status == 401, "\(name)")
                #expect(result.problem?.status == 401, "\(name)")
                #expect(result.tokens == nil, "\(name)")
            }
        }
    }

    @Test("without a configured client id the route is 404")
    func notConfigured() async throws {
        try await TestApp.run(.sqlite) { api in
            let result = try await Self.signIn(api, token: "a.b.c")
            #expect(result.status == 404)
        }
    }
}

struct TestResponseSummary: Sendable {
    var status: Int
    var tokens: TokenResponse?
    var problem: Problem?
}
