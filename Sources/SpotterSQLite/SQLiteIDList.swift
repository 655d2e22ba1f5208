import SpotterModels

/// Ids bound as one JSON array, for `json_each(?)`: any number of ids in one statement.
///
/// Written directly rather than by `JSONEncoder`, which took about 120,000 instructions for a page's 20 post
/// ids, 3% of a Following page's (callgrind, issue 8). An id's text is a UUID's hex digits and dashes, so
/// nothing in it needs escaping.
enum SQLiteIDList {
    static func json<ID: TypedID>(_ ids: some Sequence<ID>) -> String {
        var text = "["
        text.reserveCapacity(2 + 39 * ids.underestimatedCount)  // 36 characters, two quotes and a comma each
        for (index, id) in ids.enumerated() {
            if index > 0 { text.append(",") }
            text.append("\"")
            text.append(id.description)
            text.append("\"")
        }
        text.append("]")
        return text
    }
}
