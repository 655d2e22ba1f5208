import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterModels
import SpotterNostr
import SpotterTestSupport
import Testing

/// Sign in with Nostr: `POST /api/v1/auth/nostr` with a NIP-98 `Authorization: Nostr <base64 event>` header.
@Suite("Sign in with Nostr")
struct NostrSignInTests {
    static let signInURL = "http://127.0.0.1:8080/api/v1/auth/nostr"

    @Test("a linked key gets the token pair of a password sign-in, and it works", arguments: StorageBackend.available)
    func linkedKeySignsIn(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana with a linked key
            let ana = try await api.signup("ana")
            let key = try await api.linkNewKey(ana.accessToken)
            // When she signs in with a NIP-98 event of that key
            let response = try await api.nostrSignIn(try api.authorization(key))
            // Then she gets a new login of her account, whose tokens work and refresh
            #expect(response.status == .ok, "\(response.text)")
            let tokens = try response.decode(TokenResponse.self)
            #expect(tokens.user.id == ana.user.id)
            #expect(tokens.accessToken != ana.accessToken)
            #expect(try await api.call(.get, "/api/v1/me", token: tokens.accessToken).status == .ok)
            let refreshed = try await api.call(
                .post, "/api/v1/auth/refresh", body: RefreshRequest(refreshToken: tokens.refreshToken))
            #expect(refreshed.status == .ok)
            // And the login is recorded beside her first one
            let logins = try await api.storage.tokens.activeLogins(of: ana.user.id, at: api.clock.now, limit: 10)
            #expect(logins.count == 2)
        }
    }

    @Test("an unknown key is refused while sign-up by Nostr is closed", arguments: StorageBackend.available)
    func unknownKeyClosed(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let response = try await api.nostrSignIn(try api.authorization(try .generate()))
            try expectRefusal(response, saying: "not linked to an account")
        }
    }

    @Test(
        "with sign-up open, an unknown key gets a new account with the key linked", arguments: StorageBackend.available)
    func unknownKeyOpen(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.nostrSignup = .open }) { api in
            // Given a key no account has
            let key = try NostrSecretKey.generate()
            // When it signs in
            let first = try await api.nostrSignIn(try api.authorization(key))
            // Then an account is made (201), named after the npub, with the key linked and no password
            #expect(first.status == .created, "\(first.text)")
            let tokens = try first.decode(TokenResponse.self)
            #expect(tokens.user.username.hasPrefix("npub1"))
            let keys = try await api.call(.get, "/api/v1/nostr/keys", token: tokens.accessToken).decode([NostrKey].self)
            #expect(keys.map(\.pubkey) == [key.publicKey.rawValue])
            #expect(tokens.user.username == String(try #require(keys.first).npub.prefix(tokens.user.username.count)))
            #expect(try await api.signin(tokens.user.username, password: "").status != .ok)
            // And a second sign-in, a second later (the same fields in the same second make the same event, which
            // is good once), is the same account (200)
            api.clock.advance(by: 1)
            let second = try await api.nostrSignIn(try api.authorization(key))
            #expect(second.status == .ok)
            #expect(try second.decode(TokenResponse.self).user.id == tokens.user.id)
        }
    }

    @Test(
        "replayed, stale, wrong-URL, wrong-method, wrong-kind, bad-signature and malformed events are 401s that say why",
        arguments: StorageBackend.available)
    func refusals(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana with a linked key, and one event of hers that has signed in
            let ana = try await api.signup("ana")
            let key = try await api.linkNewKey(ana.accessToken)
            let used = try api.authorization(key)
            #expect(try await api.nostrSignIn(used).status == .ok)
            let now = Int64(api.clock.now.timeIntervalSince1970)
            let forged: String = try {
                var event = try api.authorizationEvent(key)
                event.sig = try api.authorizationEvent(try .generate()).sig
                return Self.header(event)
            }()
            let cases: [(String, String?, String)] = [
                ("replayed", used, "used already"),
                ("older than a minute", try api.authorization(key, createdAt: now - 61), "older than 60 seconds"),
                ("a minute ahead", try api.authorization(key, createdAt: now + 61), "ahead"),
                ("another URL", try api.authorization(key, url: "http://127.0.0.1:8080/api/v1/auth/signin"), "u tag"),
                ("another site", try api.authorization(key, url: "https://evil.example/api/v1/auth/nostr"), "u tag"),
                ("method GET", try api.authorization(key, method: "GET"), "method tag"),
                ("kind 22242", try api.authorization(key, kind: .clientAuthentication), "not 27235"),
                ("bad signature", forged, "signature"),
                ("no header", nil, "Authorization header"),
                ("Bearer scheme", "Bearer \(ana.accessToken)", "Authorization header"),
                ("not base64", "Nostr %%%", "Authorization header"),
                (
                    "not an event", "Nostr " + Data("{\"kind\":27235}".utf8).base64EncodedString(),
                    "Authorization header"
                ),
            ]
            for (name, header, saying) in cases {
                try expectRefusal(try await api.nostrSignIn(header), saying: saying, name)
            }
        }
    }

    @Test("a suspended account's key is refused", arguments: StorageBackend.available)
    func suspended(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.signup("ana")
            let key = try await api.linkNewKey(ana.accessToken)
            try await api.suspend("ana")
            try expectRefusal(try await api.nostrSignIn(try api.authorization(key)), saying: "suspended")
        }
    }

    @Test("the u tag follows the configured public address")
    func publicAddress() async throws {
        try await TestApp.run(.sqlite, configure: { $0.publicURL = "https://spotter.example/" }) { api in
            let ana = try await api.signup("ana")
            let challenge = try await api.nostrChallenge(ana.accessToken)
            #expect(challenge.relayURL == "wss://spotter.example/relay")
            let key = try NostrSecretKey.generate()
            #expect(try await api.link(ana.accessToken, try api.linkEvent(challenge, key)).status == 201)
            let local = try await api.nostrSignIn(try api.authorization(key))
            try expectRefusal(local, saying: "https://spotter.example/api/v1/auth/nostr")
            let response = try await api.nostrSignIn(
                try api.authorization(key, url: "https://spotter.example/api/v1/auth/nostr"))
            #expect(response.status == .ok)
        }
    }

    private func expectRefusal(
        _ response: TestResponse, saying: String, _ name: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(response.status == .unauthorized, "\(name): \(response.text)", sourceLocation: sourceLocation)
        let problem = try response.problem()
        #expect(problem.status == 401, sourceLocation: sourceLocation)
        #expect(
            problem.detail?.contains(saying) == true, "\(name): \(problem.detail ?? "")",
            sourceLocation: sourceLocation)
        #expect(!response.text.contains("access_token"), sourceLocation: sourceLocation)
    }

    static func header(_ event: NostrEvent) -> String {
        "Nostr " + Data(event.json.utf8).base64EncodedString()
    }
}

extension APIClient {
    /// A NIP-98 event for the sign-in route, made now by the server's clock unless told otherwise.
    func authorizationEvent(
        _ key: NostrSecretKey, url: String = NostrSignInTests.signInURL, method: String = "POST",
        kind: NostrKind = .httpAuthentication, createdAt: Int64? = nil
    ) throws -> NostrEvent {
        try NostrEvent.sign(
            kind: kind, tags: [["u", url], ["method", method]], content: "",
            createdAt: createdAt ?? Int64(clock.now.timeIntervalSince1970), with: key)
    }

    func authorization(
        _ key: NostrSecretKey, url: String = NostrSignInTests.signInURL, method: String = "POST",
        kind: NostrKind = .httpAuthentication, createdAt: Int64? = nil
    ) throws -> String {
        NostrSignInTests.header(try authorizationEvent(key, url: url, method: method, kind: kind, createdAt: createdAt))
    }

    func nostrSignIn(_ header: String?) async throws -> TestResponse {
        var headers = HTTPFields()
        if let header { headers[.authorization] = header }
        return try await call(.post, "/api/v1/auth/nostr", headers: headers)
    }
}
