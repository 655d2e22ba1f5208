import Foundation
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// Who sees whom online on `community:feed` follows `PresencePolicy`: never someone blocked either way, a
/// private account only to its followers.
@Suite("Realtime presence privacy")
struct RealtimePresenceTests {
    static func quickPresence(_ configuration: inout AppConfiguration) {
        configuration.realtime.presenceInterval = .milliseconds(20)
    }

    @Test(
        "after a block, each stops seeing the other online, live and on a new join", arguments: StorageBackend.available
    )
    func blocks(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: Self.quickPresence) { api, port in
            // Given Ana and Cai online on the community feed, each seeing the other
            let ana = try await api.signup("ana")
            let cai = try await api.signup("cai")
            let anaSocket = try await PhoenixTestClient.connect(port: port, token: ana.accessToken)
            let caiSocket = try await PhoenixTestClient.connect(port: port, token: cai.accessToken)
            _ = try await anaSocket.join("community:feed", ref: "1")
            _ = try await caiSocket.join("community:feed", ref: "1")
            try await anaSocket.waitForPresence(of: cai.user.id)
            try await caiSocket.waitForPresence(of: ana.user.id)
            // When Ana blocks Cai
            try await api.block(ana.accessToken, "cai")
            // Then each is told the other left
            try await anaSocket.waitForLeave(of: cai.user.id)
            try await caiSocket.waitForLeave(of: ana.user.id)
            // And a new socket of either sees everyone online but the other
            let anaAgain = try await PhoenixTestClient.connect(port: port, token: ana.accessToken)
            _ = try await anaAgain.join("community:feed", ref: "1")
            let state = try await anaAgain.next { $0.event == "presence_state" }
            #expect(state.payload.objectKeys.contains(ana.user.id.description))
            #expect(!state.payload.objectKeys.contains(cai.user.id.description))
            // And Cai's later joins never reach Ana: Dee, who joins after Cai's second socket, arrives first
            let caiAgain = try await PhoenixTestClient.connect(port: port, token: cai.accessToken)
            _ = try await caiAgain.join("community:feed", ref: "1")
            let dee = try await api.signup("dee")
            let deeSocket = try await PhoenixTestClient.connect(port: port, token: dee.accessToken)
            _ = try await deeSocket.join("community:feed", ref: "1")
            try await anaSocket.waitForPresence(of: dee.user.id)
            try await deeSocket.waitForPresence(of: cai.user.id)
            #expect(anaSocket.presenceJoins(of: cai.user.id).isEmpty)
            for socket in [anaSocket, caiSocket, anaAgain, caiAgain, deeSocket] { await socket.close() }
        }
    }

    @Test("a private account is online only to its followers", arguments: StorageBackend.available)
    func privateAccounts(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: Self.quickPresence) { api, port in
            // Given Pia, private, with Fay as an approved follower, and Sam a stranger
            let pia = try await api.signup("pia")
            try await api.makePrivate(pia.accessToken)
            let fay = try await api.signup("fay")
            let sam = try await api.signup("sam")
            try await api.follow(fay.accessToken, "pia")
            try await api.approve(pia.accessToken, "fay")
            let samSocket = try await PhoenixTestClient.connect(port: port, token: sam.accessToken)
            let faySocket = try await PhoenixTestClient.connect(port: port, token: fay.accessToken)
            _ = try await samSocket.join("community:feed", ref: "1")
            _ = try await faySocket.join("community:feed", ref: "1")
            // When Pia comes online, then Zed
            let piaSocket = try await PhoenixTestClient.connect(port: port, token: pia.accessToken)
            _ = try await piaSocket.join("community:feed", ref: "1")
            let zed = try await api.signup("zed")
            let zedSocket = try await PhoenixTestClient.connect(port: port, token: zed.accessToken)
            _ = try await zedSocket.join("community:feed", ref: "1")
            // Then her follower sees her, and she sees herself
            try await faySocket.waitForPresence(of: pia.user.id)
            try await piaSocket.waitForPresence(of: pia.user.id)
            // And the stranger, who saw Zed join after her, never saw her, nor does Zed
            try await samSocket.waitForPresence(of: zed.user.id)
            #expect(samSocket.presenceJoins(of: pia.user.id).isEmpty)
            let zedState = try await zedSocket.next { $0.event == "presence_state" }
            #expect(!zedState.payload.objectKeys.contains(pia.user.id.description))
            try await zedSocket.waitForPresence(of: zed.user.id)
            #expect(zedSocket.presenceJoins(of: pia.user.id).isEmpty)
            for socket in [samSocket, faySocket, piaSocket, zedSocket] { await socket.close() }
        }
    }
}
