import Foundation
import SpotterModels
import Testing

@Suite("UUID text")
struct UUIDTextTests {
    @Test("reads and writes what Foundation does, lowercase")
    func matchesFoundation() {
        for _ in 0..<1000 {
            let uuid = UUID()
            #expect(UUIDText.format(uuid) == uuid.uuidString.lowercased())
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
            #expect(UUIDText.parse(uuid.uuidString.lowercased()) == uuid)
        }
        let edges = [
            UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!,
        ]
        for uuid in edges {
            #expect(UUIDText.format(uuid) == uuid.uuidString.lowercased())
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
        }
    }

    /// Stricter than Foundation in one way: its `sscanf` reads " 1" as a hex byte, so it takes a space
    /// where a digit belongs. An id with a space in it is not one.
    @Test(
        "refuses text that is not a UUID",
        arguments: [
            "", "01a204c5-116d-7609-9381-2298ea7dea9", "01a204c5-116d-7609-9381-2298ea7dea921",
            "01a204c5x116d-7609-9381-2298ea7dea92", "01a204c5-116d-7609-9381-2298ea7dea9g",
            "01a204c5116d76099381-2298ea7dea92abcd", "{01a204c5-116d-7609-9381-2298ea7dea92}",
            "01a204c5-116d-7609-9381-2298ea7déa9", " 1a204c5-116d-7609-9381-2298ea7dea92",
        ])
    func refuses(_ text: String) {
        #expect(UUIDText.parse(text) == nil)
        #expect(UserID(text) == nil)
    }
}
