import Foundation
import NIOConcurrencyHelpers
import SpotterE2E
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterKit

/// A server that rewrites an encrypted group's history is caught after a relaunch too (issue 40, item 11):
/// the chains a device verified are kept in its client database, not only in memory.
@Suite("Encrypted chains seen across launches")
struct SeenChainsAcrossLaunchesTests {
    @Test("a group chain cut back after a relaunch is refused with the kept heads, and taken without them")
    func rewrittenAfterRelaunch() async throws {
        try await LiveServer.run { url, clock in
            // Given Ana's encrypted family with Ben in it (a chain of two statements), seen on her phone, whose
            // client database is a file
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seen-chains-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("spotter.sqlite").path
            let tokens = MemoryTokenStore()
            let keys = MemoryDeviceKeyStore()
            let ana = SpotterClient(baseURL: url, tokens: tokens)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            let phone = EncryptedGroups(
                client: ana, store: keys, database: try AppDatabase(path: path), now: { clock.now })
            try await phone.registerDevice(name: "Ana's phone")
            let family = try await phone.createGroup(name: "Family", history: true)
            let ben = EncryptedGroupsLiveTests.Device(
                try await Self.signUp("ben", url), clock: clock)
            try await ben.groups.registerDevice(name: "Ben's phone")
            _ = try await ana.createInvitation(to: family.id, CreateInvitationRequest(username: "ben"))
            _ = try await ben.client.joinGroup(family.id)
            _ = try await phone.reconcile(family.id)
            #expect(try await ana.groupChain(of: family.id).statements.count == 2)

            // When the app starts again and the server shows the group's chain without Ben's addition
            let forging = CuttingChains(path: "/api/v1/groups/\(family.id)/e2e/chain")
            let cut = SpotterClient(baseURL: url, tokens: tokens, transport: forging)
            let relaunched = EncryptedGroups(
                client: cut, store: keys, database: try AppDatabase(path: path), now: { clock.now })

            // Then the phone refuses it: the chain does not continue what it saw before the relaunch
            let name = ChainID.group(family.id.rawValue).description
            await #expect(throws: EncryptedGroupsError.chainRewritten(chain: name)) {
                _ = try await relaunched.safetyNumbers(family.id)
            }
            // And without its kept heads (a device that never saw the group) the same chain is taken as it is,
            // which is what the kept heads are for
            let fresh = EncryptedGroups(client: cut, store: keys, now: { clock.now })
            _ = try await fresh.safetyNumbers(family.id)
            #expect(forging.cuts > 0)
        }
    }

    static func signUp(_ name: String, _ url: URL) async throws -> SpotterClient {
        let client = SpotterClient(baseURL: url)
        try await client.signUp(email: "\(name)@example.com", username: name, password: "correct horse battery")
        return client
    }
}

/// The real server, except that one chain is answered without its last statement: a server hiding history.
final class CuttingChains: HTTPTransport {
    let path: String
    private let count = NIOLockedValueBox(0)
    var cuts: Int { count.withLockedValue { $0 } }

    init(path: String) { self.path = path }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        var response = try await URLSessionTransport().send(request)
        guard request.method == "GET", request.url.path == path, response.status == 200 else { return response }
        var chain = try WireJSON.decoder().decode(E2EChain.self, from: response.body)
        chain.statements.removeLast()
        response.body = try WireJSON.encoder().encode(chain)
        count.withLockedValue { $0 += 1 }
        return response
    }
}
