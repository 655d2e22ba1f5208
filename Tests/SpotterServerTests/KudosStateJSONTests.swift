import Foundation
import SpotterModels
import Testing

@testable import SpotterServer

@Suite("Kudos answers written by hand")
struct KudosStateJSONTests {
    @Test("are byte for byte what the wire's JSON encoder writes", arguments: [0, 1, 12_345], [true, false])
    func sameAsEncoder(count: Int, given: Bool) throws {
        let state = KudosState(postID: .generate(), kudosCount: count, kudosedByMe: given)
        let encoded = try WireJSON.encoder().encode(state)
        #expect(state.json == String(decoding: encoded, as: UTF8.self))
        #expect(try WireJSON.decoder().decode(KudosState.self, from: Data(state.json.utf8)) == state)
    }
}
