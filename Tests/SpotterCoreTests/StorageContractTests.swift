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
        "an idempotency key stores its first answer once, replays it, and refuses another request",
        arguments: StorageBackend.available)
    func idempotency(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let store = storage.idempotency
            let day: TimeInterval = 86_400
            let first = StoredResponse(status: 201, contentType: "application/json", body: Data("{}".utf8))
            let second = StoredResponse(status: 200, contentType: nil, body: Data("again".utf8))
            func record(
                _ scope: String, _ fingerprint: String, _ response: StoredResponse, at now: Date
            ) async throws
                -> IdempotencyClaim
            {
                try await store.record(
                    scope: scope, key: "k", fingerprint: fingerprint, response: response, now: now, retention: day)
            }
            #expect(try await store.find(scope: "u1", key: "k") == nil)
            #expect(try await record("u1", "f", first, at: Self.start) == .claimed)
            // The first answer stands: the same request gets it back, another request is refused.
            #expect(try await record("u1", "f", second, at: Self.start + 1) == .replay(first))
            #expect(try await record("u1", "g", second, at: Self.start + 1) == .mismatch)
            let found = try await store.find(scope: "u1", key: "k")
            #expect(found?.claim(fingerprint: "f", now: Self.start + 2, retention: day) == .replay(first))
            // Keys are per scope, and forgotten after the retention window: a new answer replaces the old.
            #expect(try await record("u2", "g", second, at: Self.start + 1) == .claimed)
            #expect(try await record("u1", "g", second, at: Self.start + day) == .claimed)
            #expect(try await record("u1", "g", first, at: Self.start + day + 1) == .replay(second))
        }
    }

    @Test("an idempotency record stored in a unit that rolls back is not kept", arguments: StorageBackend.available)
    func idempotencyRolledBack(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let store = storage.idempotency
            let response = StoredResponse(status: 201, contentType: nil, body: Data())
            // The record is stored, then its unit fails: nothing of it stays.
            struct RolledBack: Error { let claim: IdempotencyClaim }
            do {
                _ = try await storage.write { () async throws -> Bool in
                    let claim = try await store.record(
                        scope: "u", key: "k", fingerprint: "f", response: response, now: Self.start, retention: 100)
                    throw RolledBack(claim: claim)
                }
                Issue.record("the unit did not fail")
            } catch let rolledBack as RolledBack {
                #expect(rolledBack.claim == .claimed)
            }
            #expect(try await store.find(scope: "u", key: "k") == nil)
        }
    }

    @Test("old idempotency records are swept", arguments: StorageBackend.available)
    func idempotencySweep(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let store = storage.idempotency
            let response = StoredResponse(status: 204, contentType: nil, body: Data())
            for (key, at) in [("old", Self.start), ("new", Self.start + 50)] {
                _ = try await store.record(
                    scope: "u", key: key, fingerprint: "f", response: response, now: at, retention: 100)
            }
            #expect(try await store.deleteExpired(before: Self.start + 10) == 1)
            #expect(try await store.find(scope: "u", key: "old") == nil)
            #expect(
                try await store.record(
                    scope: "u", key: "new", fingerprint: "f", response: response, now: Self.start + 51, retention: 100)
                    == .replay(response))
        }
    }
}
