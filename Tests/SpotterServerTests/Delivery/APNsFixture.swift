import AsyncHTTPClient
import Crypto
import Foundation
import NIOConcurrencyHelpers
import SpotterServer

/// One test's world: the team's signing key, a stand-in APNs that checks tokens with its public half, served
/// over TLS and HTTP/2, and an `APNsClient` pointed at it, sharing a clock the test can move.
struct APNsFixture {
    static let teamID = "TEAM123456"
    static let keyID = "KEY7654321"
    static let topic = "club.spotter.app"
    /// A device token of the usual 32 bytes, hex.
    static let deviceToken = String(repeating: "ab12", count: 16)

    let apns: APNsStandIn
    let client: APNsClient
    let configuration: APNsConfiguration
    let httpClient: HTTPClient
    let clock: TestClock
    let server: APNsTestServer

    /// Runs `test` against a fresh server; `signingKey` replaces the key the client signs with.
    static func run(
        signingKey: P256.Signing.PrivateKey? = nil, _ test: (APNsFixture) async throws -> Void
    ) async throws {
        let teamKey = P256.Signing.PrivateKey()
        let clock = TestClock()
        let check = ProviderTokenCheck(keyID: keyID, teamID: teamID, publicKey: teamKey.publicKey)
        let apns = APNsStandIn(tokenCheck: check, topic: topic, now: clock.now)
        try await APNsTestServer.serving(apns) { server in
            let httpClient = server.makeHTTPClient()
            do {
                let configuration = APNsConfiguration(
                    teamID: teamID, keyID: keyID, privateKeyPEM: (signingKey ?? teamKey).pemRepresentation,
                    topic: topic, baseURL: server.url)
                let client = try APNsClient(configuration: configuration, httpClient: httpClient, now: clock.now)
                try await test(
                    APNsFixture(
                        apns: apns, client: client, configuration: configuration, httpClient: httpClient,
                        clock: clock, server: server))
            } catch {
                try? await httpClient.shutdown()
                throw error
            }
            try await httpClient.shutdown()
        }
    }
}

/// A wall clock the test moves by hand, shared by the client (to stamp tokens) and the stand-in (to age them).
final class TestClock: Sendable {
    private let date = NIOLockedValueBox(Date())

    var now: @Sendable () -> Date { { [date] in date.withLockedValue { $0 } } }

    func advance(minutes: Double) { date.withLockedValue { $0 += minutes * 60 } }
}
