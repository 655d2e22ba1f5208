import Foundation
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// The storage contract for mailed links and email changes: every adapter passes the same cases.
@Suite("Storage contract: account links")
struct AccountLinkStoreContractTests {
    static let start = StorageContractTests.start

    static func link(
        _ hash: String, for user: UserID, _ purpose: AccountLinkPurpose = .passwordReset, email: String? = nil,
        lifetime: TimeInterval = 3600
    ) -> AccountLinkRecord {
        AccountLinkRecord(
            hash: hash, userID: user, purpose: purpose, newEmail: email, createdAt: start,
            expiresAt: start + lifetime)
    }

    @Test(
        "a link is used once, only for its purpose and before it expires; using one spends its siblings",
        arguments: StorageBackend.available)
    func consume(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given Ana with two reset links and an email link, and Bea with a reset link
            let ana = StorageContractTests.account("ana_links")
            let bea = StorageContractTests.account("bea_links")
            try await storage.accounts.create(ana)
            try await storage.accounts.create(bea)
            try await storage.accountLinks.insert(Self.link("a1", for: ana.id))
            try await storage.accountLinks.insert(Self.link("a2", for: ana.id))
            try await storage.accountLinks.insert(Self.link("e1", for: ana.id, .emailChange, email: "new@example.com"))
            try await storage.accountLinks.insert(Self.link("b1", for: bea.id))

            // Then the wrong purpose, a late use, or an unknown hash finds nothing
            #expect(try await storage.accountLinks.consume(hash: "a1", purpose: .emailChange, at: Self.start) == nil)
            #expect(
                try await storage.accountLinks.consume(hash: "a1", purpose: .passwordReset, at: Self.start + 3600)
                    == nil)
            #expect(try await storage.accountLinks.consume(hash: "zz", purpose: .passwordReset, at: Self.start) == nil)

            // When one of Ana's reset links is used, at most once even when raced
            async let first = storage.accountLinks.consume(hash: "a1", purpose: .passwordReset, at: Self.start + 1)
            async let second = storage.accountLinks.consume(hash: "a1", purpose: .passwordReset, at: Self.start + 1)
            let results = try await [first, second]
            #expect(results.compactMap { $0 }.count == 1)
            #expect(results.compactMap { $0 }.first?.userID == ana.id)

            // Then her other reset link is spent, but not her email link nor Bea's link
            #expect(
                try await storage.accountLinks.consume(hash: "a2", purpose: .passwordReset, at: Self.start + 2) == nil)
            let email = try await storage.accountLinks.consume(hash: "e1", purpose: .emailChange, at: Self.start + 2)
            #expect(email?.newEmail == "new@example.com")
            #expect(
                try await storage.accountLinks.consume(hash: "b1", purpose: .passwordReset, at: Self.start + 2) != nil)
        }
    }

    @Test("expired links are deleted; an email change keeps emails unique", arguments: StorageBackend.available)
    func sweepAndEmail(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let cat = StorageContractTests.account("cat_links")
            let dan = StorageContractTests.account("dan_links")
            try await storage.accounts.create(cat)
            try await storage.accounts.create(dan)
            try await storage.accountLinks.insert(Self.link("old", for: cat.id, lifetime: 10))
            try await storage.accountLinks.insert(Self.link("new", for: cat.id, lifetime: 7200))
            #expect(try await storage.accountLinks.deleteExpired(before: Self.start + 60) == 1)
            #expect(
                try await storage.accountLinks.consume(hash: "new", purpose: .passwordReset, at: Self.start + 60) != nil
            )

            try await storage.accounts.setEmail(cat.id, "Cat.New@example.com")
            #expect(try await storage.accounts.find(login: "cat.new@EXAMPLE.com")?.id == cat.id)
            #expect(try await storage.accounts.find(login: "cat_links@example.com") == nil)
            await #expect(throws: StorageError.duplicate(field: "email")) {
                try await storage.accounts.setEmail(dan.id, "CAT.new@example.com")
            }
        }
    }
}
