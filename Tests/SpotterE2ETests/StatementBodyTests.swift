import Foundation
import SpotterE2E
import Testing

@Suite("Statement bodies")
struct StatementBodyTests {
    @Test("a body with a key twice in one object is refused, since JSON parsers keep different ones")
    func duplicateKeys() throws {
        // Given Alice's group and a signed add whose body names Bob's role twice, member then admin
        let alice = try Person.withFirstDevice()
        let bob = UUID()
        var group = GroupBuilder()
        try group.append(.create(user: alice.id, history: false), by: alice.devices[0])
        let body = """
            {"v":1,"chain":"group:\(group.id.uuidString.lowercased())","seq":1,"prev":"\(group.chain[0].hash)",\
            "at":1,"kind":"add","user":"\(bob.uuidString.lowercased())","role":"member","r\\u006fle":"admin"}
            """
        group.chain.append(
            try SignedStatement(
                signing: Data(body.utf8), by: alice.devices[0].registration.id, with: alice.devices[0].keys.signing))
        // Then the chain is refused rather than read one way here and another in the browser
        #expect(throws: ChainError.self) {
            try GroupChain.verify(group.chain, groupID: group.id, deviceChains: [try alice.verified()])
        }
        // While the same body without the duplicate verifies
        var clean = group
        clean.chain[1] = try SignedStatement(
            signing: Data(body.replacingOccurrences(of: #","r\u006fle":"admin""#, with: "").utf8),
            by: alice.devices[0].registration.id, with: alice.devices[0].keys.signing)
        let verified = try GroupChain.verify(clean.chain, groupID: clean.id, deviceChains: [try alice.verified()])
        #expect(verified.role(of: bob) == .member)

        // And a key written with escapes is refused even alone, as the browser refuses it
        var escaped = group
        escaped.chain[1] = try SignedStatement(
            signing: Data(
                body.replacingOccurrences(of: #""role":"member","#, with: "").replacingOccurrences(
                    of: #""r\u006fle":"admin""#, with: #""r\u006fle":"member""#
                ).utf8),
            by: alice.devices[0].registration.id, with: alice.devices[0].keys.signing)
        #expect(throws: ChainError.self) {
            try GroupChain.verify(escaped.chain, groupID: escaped.id, deviceChains: [try alice.verified()])
        }
    }
}
