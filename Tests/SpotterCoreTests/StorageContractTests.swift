import Foundation
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// The storage contract: every adapter passes the same cases. A case here is a promise SpotterCore relies on.
@Suite("Storage contract")
struct StorageContractTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func account(_ name: String, email: String? = nil, apple: String? = nil) -> AccountRecord {
        AccountRecord(
            id: .generate(at: start), username: name, email: email ?? "\(name)@example.com", passwordHash: "hash",
            displayName: name, appleSubject: apple, createdAt: start)
    }

    @Test("migrations run twice without harm", arguments: StorageBackend.available)
    func migrationsAreRepeatable(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            try await storage.migrate()
            try await storage.ping()
        }
    }

    @Test(
        "an account is found by id, by username or email in any case, and by Apple subject",
        arguments: StorageBackend.available)
    func accountLookups(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given
            let ana = Self.account("Ana_Runs", email: "Ana@Example.com", apple: "apple-ana")
            try await storage.accounts.create(ana)
            // Then
            #expect(try await storage.accounts.find(id: ana.id) == ana)
            #expect(try await storage.accounts.find(login: "ana_runs") == ana)
            #expect(try await storage.accounts.find(login: "ANA@example.COM") == ana)
            #expect(try await storage.accounts.find(appleSubject: "apple-ana") == ana)
            #expect(try await storage.accounts.find(login: "nobody") == nil)
            #expect(try await storage.accounts.find(id: .generate()) == nil)
        }
    }

    @Test("usernames, emails and Apple subjects are unique, ignoring case", arguments: StorageBackend.available)
    func uniqueness(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            try await storage.accounts.create(Self.account("ana", apple: "apple-1"))
            await #expect(throws: StorageError.duplicate(field: "username")) {
                try await storage.accounts.create(Self.account("ANA", email: "other@example.com"))
            }
            await #expect(throws: StorageError.duplicate(field: "email")) {
                try await storage.accounts.create(Self.account("bea", email: "ANA@example.com"))
            }
            await #expect(throws: StorageError.duplicate(field: "apple_subject")) {
                try await storage.accounts.create(Self.account("cai", apple: "apple-1"))
            }
            // Accounts without email don't clash with each other.
            var first = Self.account("dee")
            first.email = nil
            var second = Self.account("eve")
            second.email = nil
            try await storage.accounts.create(first)
            try await storage.accounts.create(second)
        }
    }

    @Test("linking an Apple subject to an account", arguments: StorageBackend.available)
    func linkApple(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = Self.account("ana")
            try await storage.accounts.create(ana)
            try await storage.accounts.setAppleSubject("apple-ana", for: ana.id)
            #expect(try await storage.accounts.find(appleSubject: "apple-ana")?.id == ana.id)
        }
    }

    @Test("a token round-trips and a refresh token is spent exactly once", arguments: StorageBackend.available)
    func tokenUse(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given
            let ana = Self.account("ana")
            try await storage.accounts.create(ana)
            let token = TokenRecord(
                hash: OpaqueToken.hash("t1"), userID: ana.id, family: UUIDv7.make(), kind: .refresh,
                createdAt: Self.start, expiresAt: Self.start + 60)
            try await storage.tokens.insert(token)
            #expect(try await storage.tokens.find(hash: token.hash) == token)
            // When two refreshes race for it
            async let first = storage.tokens.markUsed(hash: token.hash, at: Self.start + 1)
            async let second = storage.tokens.markUsed(hash: token.hash, at: Self.start + 1)
            let results = try await [first, second]
            // Then exactly one wins
            #expect(results.filter { $0 }.count == 1)
            #expect(try await storage.tokens.find(hash: token.hash)?.usedAt == Self.start + 1)
        }
    }

    @Test("revoking a family revokes all its tokens and no others", arguments: StorageBackend.available)
    func revokeFamily(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = Self.account("ana")
            try await storage.accounts.create(ana)
            let family = UUIDv7.make()
            let other = UUIDv7.make()
            for (name, fam) in [("a", family), ("b", family), ("c", other)] {
                try await storage.tokens.insert(
                    TokenRecord(
                        hash: OpaqueToken.hash(name), userID: ana.id, family: fam, kind: .access,
                        createdAt: Self.start, expiresAt: Self.start + 60))
            }
            try await storage.tokens.revokeFamily(family, at: Self.start + 5)
            #expect(try await storage.tokens.find(hash: OpaqueToken.hash("a"))?.revokedAt == Self.start + 5)
            #expect(try await storage.tokens.find(hash: OpaqueToken.hash("b"))?.revokedAt == Self.start + 5)
            #expect(try await storage.tokens.find(hash: OpaqueToken.hash("c"))?.revokedAt == nil)
            #expect(try await storage.tokens.markUsed(hash: OpaqueToken.hash("a"), at: Self.start + 6) == false)
        }
    }

    @Test(
        "a login keeps what it signed in from until its tokens are gone; older logins have none",
        arguments: StorageBackend.available)
    func loginDevices(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = Self.account("ana")
            try await storage.accounts.create(ana)
            let recorded = UUIDv7.make()
            let older = UUIDv7.make()
            for (name, family, life) in [("r", recorded, 50.0), ("o", older, 1000.0)] {
                try await storage.tokens.insert(
                    TokenRecord(
                        hash: OpaqueToken.hash(name), userID: ana.id, family: family, kind: .refresh,
                        createdAt: Self.start, expiresAt: Self.start + life))
            }
            try await storage.tokens.recordLogin(
                recorded, of: ana.id, userAgent: "curl/8.5.0", address: "192.168.1.20", at: Self.start)
            let logins = try await storage.tokens.activeLogins(of: ana.id, at: Self.start + 1, limit: 10)
            #expect(Set(logins.map(\.family)) == [recorded, older])
            let named = try #require(logins.first { $0.family == recorded })
            #expect(named.userAgent == "curl/8.5.0" && named.address == "192.168.1.20")
            let unnamed = try #require(logins.first { $0.family == older })
            #expect(unnamed.userAgent == nil && unnamed.address == nil)
            // Once the login's last token is swept, what it signed in from is forgotten with it.
            #expect(try await storage.tokens.deleteExpired(before: Self.start + 100) == 1)
            try await storage.tokens.insert(
                TokenRecord(
                    hash: OpaqueToken.hash("again"), userID: ana.id, family: recorded, kind: .refresh,
                    createdAt: Self.start + 200, expiresAt: Self.start + 1000))
            let after = try await storage.tokens.activeLogins(of: ana.id, at: Self.start + 201, limit: 10)
            #expect(after.first { $0.family == recorded }?.userAgent == nil)
        }
    }

    @Test("expired tokens are deleted", arguments: StorageBackend.available)
    func deleteExpired(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = Self.account("ana")
            try await storage.accounts.create(ana)
            for (name, life) in [("old", 10.0), ("new", 1000.0)] {
                try await storage.tokens.insert(
                    TokenRecord(
                        hash: OpaqueToken.hash(name), userID: ana.id, family: UUIDv7.make(), kind: .access,
                        createdAt: Self.start, expiresAt: Self.start + life))
            }
            #expect(try await storage.tokens.deleteExpired(before: Self.start + 100) == 1)
            #expect(try await storage.tokens.find(hash: OpaqueToken.hash("old")) == nil)
            #expect(try await storage.tokens.find(hash: OpaqueToken.hash("new")) != nil)
        }
    }

    @Test(
        "an idempotency key is claimed once, replayed, and refused for another request",
        arguments: StorageBackend.available)
    func idempotency(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let store = storage.idempotency
            let day: TimeInterval = 86_400
            let response = StoredResponse(status: 201, contentType: "application/json", body: Data("{}".utf8))
            // First claim wins; a concurrent duplicate sees it in progress.
            #expect(
                try await store.begin(scope: "u1", key: "k", fingerprint: "f", now: Self.start, retention: day)
                    == .claimed)
            #expect(
                try await store.begin(scope: "u1", key: "k", fingerprint: "f", now: Self.start, retention: day)
                    == .inProgress)
            // Once complete, the same request replays and another request is a mismatch.
            try await store.complete(scope: "u1", key: "k", response: response)
            #expect(
                try await store.begin(scope: "u1", key: "k", fingerprint: "f", now: Self.start + 1, retention: day)
                    == .replay(response))
            #expect(
                try await store.begin(scope: "u1", key: "k", fingerprint: "g", now: Self.start + 1, retention: day)
                    == .mismatch)
            // Keys are per scope, and forgotten after the retention window.
            #expect(
                try await store.begin(scope: "u2", key: "k", fingerprint: "g", now: Self.start + 1, retention: day)
                    == .claimed)
            #expect(
                try await store.begin(scope: "u1", key: "k", fingerprint: "g", now: Self.start + day, retention: day)
                    == .claimed)
        }
    }

    @Test("an abandoned idempotency claim can be taken again", arguments: StorageBackend.available)
    func idempotencyAbandoned(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let store = storage.idempotency
            // A claim made outside a unit of work, as older Spotters did, by a process that then died.
            let claim = try await store.begin(scope: "u", key: "a", fingerprint: "f", now: Self.start, retention: 100)
            #expect(claim == .claimed)
            // It is taken over after a minute.
            let later = try await store.begin(
                scope: "u", key: "a", fingerprint: "f", now: Self.start + 61, retention: 100)
            #expect(later == .claimed)
        }
    }

    @Test("old idempotency records are swept", arguments: StorageBackend.available)
    func idempotencySweep(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let store = storage.idempotency
            _ = try await store.begin(scope: "u", key: "old", fingerprint: "f", now: Self.start, retention: 100)
            _ = try await store.begin(scope: "u", key: "new", fingerprint: "f", now: Self.start + 50, retention: 100)
            #expect(try await store.deleteExpired(before: Self.start + 10) == 1)
            #expect(
                try await store.begin(scope: "u", key: "new", fingerprint: "f", now: Self.start + 51, retention: 100)
                    == .inProgress)
        }
    }
}
