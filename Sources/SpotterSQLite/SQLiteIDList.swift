import Foundation
import SpotterModels

/// Ids bound as one JSON array, for `json_each(?)`: any number of ids in one statement.
///
/// Written directly rather than by `JSONEncoder`, whose generic machinery is far dearer than writing out a
/// page's few ids by hand. An id's text is a UUID's hex digits and dashes, so nothing in it needs escaping.
enum SQLiteIDList {
    static func json<ID: TypedID>(_ ids: some Sequence<ID>) -> String {
        json(uuids: ids.lazy.map(\.rawValue))
    }

    /// Plain UUIDs: ids a device made (devices, encrypted blobs), which no typed id names.
    static func json(uuids ids: some Sequence<UUID>) -> String {
        // Bytes first, one String at the end: appending to a String checks and grows it for every piece, three
        // times an id.
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(2 + 39 * ids.underestimatedCount)  // 36 characters, two quotes and a comma each
        for id in ids {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: UUIDText.format(id).utf8)
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
