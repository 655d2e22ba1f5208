import Foundation
import SpotterCore
import SpotterModels
import Testing

@testable import SpotterServer

@Suite("Realtime connection buffer")
struct RealtimeConnectionTests {
    @Test("a socket whose queue overflows is marked for disconnection and its queue ends, without blocking the sender")
    func overflow() async {
        let user = AccountRecord(
            id: .generate(), username: "slow", email: nil, passwordHash: nil, displayName: "Slow", appleSubject: nil,
            createdAt: Date())
        let connection = RealtimeConnection(user: user, connectedAt: Date(), bufferSize: 3)
        for index in 0..<10 {
            connection.send(
                .broadcast(topic: "community:feed", event: "new_post", payload: .object(["n": .number(Double(index))])))
        }
        #expect(connection.isOverflowed)
        var delivered = 0
        for await _ in connection.outbound { delivered += 1 }
        #expect(delivered == 3)
    }
}
