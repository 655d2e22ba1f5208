import Foundation
import SpotterModels
import Testing

@Suite("Base64URL and feed cursors")
struct Base64URLTests {
    @Test("writes base64's text in the URL alphabet without padding, and reads it back")
    func roundTrip() {
        // 0xfb 0xff gives "+/8=" in base64: both substituted characters and a pad.
        #expect(Base64URL.encode(Data([0xfb, 0xff])) == "-_8")
        #expect(Base64URL.decode("-_8") == Data([0xfb, 0xff]))
        for length in 0..<40 {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255) })
            let text = Base64URL.encode(bytes)
            #expect(
                text
                    == bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))
            #expect(Base64URL.decode(text) == bytes)
        }
    }

    @Test("refuses text outside the alphabet", arguments: ["a", "ab$c", "é", "ab cd"])
    func refuses(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("a cursor names its id, lowercase, and nothing else reads as one")
    func cursors() {
        let id = UUID()
        let cursor = FeedCursor.at(id)
        #expect(Base64URL.decodeText(cursor) == "c1:" + id.uuidString.lowercased())
        #expect(FeedCursor.id(in: cursor) == id)
        #expect(FeedCursor.id(in: Base64URL.encode("c2:" + id.uuidString)) == nil)
        #expect(FeedCursor.id(in: Base64URL.encode("c1:not-a-uuid")) == nil)
        #expect(FeedCursor.id(in: "%%%") == nil)
    }
}
