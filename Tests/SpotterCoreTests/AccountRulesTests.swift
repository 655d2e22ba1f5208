import Foundation
import SpotterCore
import SpotterModels
import Testing

@Suite("Account rules")
struct AccountRulesTests {
    @Test(
        "emails",
        arguments: [
            ("ana@example.com", true), ("a.b+c@sub.example.org", true), ("", false), ("ana", false),
            ("ana@example", false), ("@example.com", false), ("ana@@example.com", false), ("an a@example.com", false),
            ("ana@.com", false), ("ana@example.com.", false), ("ns|@true.example.com*", false),
            ("ana@exa_mple.com", false), ("ana@-example.com", false), ("ana@example..com", false),
            ("o'neil|x@mail.example.com", true), ("ana@bücher.example", true), ("ana@xn--bcher-kva.example", true),
        ])
    func emails(email: String, valid: Bool) {
        #expect((AccountRules.emailProblem(email) == nil) == valid)
    }

    @Test(
        "usernames",
        arguments: [
            ("ana", true), ("Ana_Runs_2", true), ("ab", false), (String(repeating: "a", count: 31), false),
            ("ana lifts", false), ("ana!", false), ("ánä", false), ("ana.runs", false),
        ])
    func usernames(username: String, valid: Bool) {
        #expect((AccountRules.usernameProblem(username) == nil) == valid)
    }

    @Test("passwords are 8 characters or more, and 72 bytes at most, because bcrypt reads no further")
    func passwords() {
        #expect(AccountRules.passwordProblem("1234567") != nil)
        #expect(AccountRules.passwordProblem("äöüäöüä") != nil)  // 14 bytes, but 7 characters
        #expect(AccountRules.passwordProblem("e\u{301}e\u{301}e\u{301}e\u{301}") == nil)  // 8 code points
        #expect(AccountRules.passwordProblem("12345678") == nil)
        #expect(AccountRules.passwordProblem(String(repeating: "x", count: 72)) == nil)
        #expect(AccountRules.passwordProblem(String(repeating: "x", count: 73)) != nil)
        #expect(AccountRules.passwordProblem(String(repeating: "é", count: 37)) != nil)  // 74 bytes
    }

    @Test("opaque tokens are random, prefixed by kind, and hashed to 64 hex digits")
    func tokens() {
        let a = OpaqueToken.generate(.access)
        let b = OpaqueToken.generate(.access)
        #expect(a != b)
        #expect(a.hasPrefix("spa_"))
        #expect(OpaqueToken.generate(.refresh).hasPrefix("spr_"))
        #expect(OpaqueToken.hash(a).count == 64)
        #expect(OpaqueToken.hash(a) == OpaqueToken.hash(a))
        #expect(!OpaqueToken.hash(a).contains(a))
        // FIPS 180-2's "abc" vector: stored hashes are looked up by this text, so its form must never change.
        #expect(OpaqueToken.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.encode([0x00, 0x0F, 0xA0, 0xFF]) == "000fa0ff")
    }
}

@Suite("Idempotency records")
struct IdempotencyRowTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a finished record replays its response to the same request only")
    func finished() {
        let row = IdempotencyRow(
            fingerprint: "f", createdAt: start, status: 200, contentType: "application/json", body: Data("{}".utf8))
        #expect(
            row.claim(fingerprint: "f", now: start + 10, retention: 100)
                == .replay(StoredResponse(status: 200, contentType: "application/json", body: Data("{}".utf8))))
        #expect(row.claim(fingerprint: "g", now: start + 10, retention: 100) == .mismatch)
        #expect(row.claim(fingerprint: "f", now: start + 100, retention: 100) == nil)
    }

    @Test("an unfinished record is in progress until it is abandoned")
    func unfinished() {
        let row = IdempotencyRow(fingerprint: "f", createdAt: start, status: nil, contentType: nil, body: nil)
        #expect(row.claim(fingerprint: "f", now: start + 5, retention: 1000) == .inProgress)
        #expect(row.claim(fingerprint: "g", now: start + 5, retention: 1000) == .mismatch)
        #expect(row.claim(fingerprint: "f", now: start + IdempotencyRow.abandonedAfter, retention: 1000) == nil)
    }
}
