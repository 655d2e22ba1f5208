import Foundation
import SpotterModels

/// Cursor pagination: `?limit=20&cursor=…` pages back in time, `?since=…` fetches what is newer.
///
/// A cursor is the last item's id, wrapped so clients treat it as opaque. Because ids are UUIDv7 and every
/// list is ordered by id, a page boundary never moves when new items arrive: nothing is skipped or repeated.
public struct PageRequest: Sendable, Equatable {
    public static let defaultLimit = 20
    public static let maxLimit = 50

    public var limit: Int
    public var cursor: UUID?
    public var since: UUID?

    public init(limit: Int = PageRequest.defaultLimit, cursor: UUID? = nil, since: UUID? = nil) {
        self.limit = limit
        self.cursor = cursor
        self.since = since
    }

    /// Reads `limit`, `cursor` and `since` query values; throws naming the bad parameter. An empty `cursor` or
    /// `since` is none (`given(_:)`).
    public init(limit: String?, cursor: String?, since: String?) throws {
        var parsedLimit = Self.defaultLimit
        if let limit {
            guard let value = Int(limit), (1...Self.maxLimit).contains(value) else {
                throw SpotterError.malformed(
                    detail: "limit must be a whole number from 1 to \(Self.maxLimit).", field: "limit")
            }
            parsedLimit = value
        }
        self.init(
            limit: parsedLimit, cursor: try Self.given(cursor).map { try Self.decode($0, field: "cursor") },
            since: try Self.given(since).map { try Self.decode($0, field: "since") })
        if self.cursor != nil, self.since != nil {
            throw SpotterError.malformed(detail: "Use either cursor or since, not both.", field: "since")
        }
    }

    /// A cursor as a query string carries it, for every kind of cursor: `cursor=` with nothing after it is no
    /// cursor, the first page. A client that builds its next URL from an absent `next_cursor` sends just
    /// that, and the document allows the empty string.
    public static func given(_ cursor: String?) -> String? {
        guard let cursor, !cursor.isEmpty else { return nil }
        return cursor
    }

    public static func encode(_ id: UUID) -> String { FeedCursor.at(id) }

    /// The id inside a cursor; throws a 400 naming `field` for anything this server did not give out.
    public static func decode(_ cursor: String, field: String) throws -> UUID {
        guard let id = FeedCursor.id(in: cursor) else {
            throw SpotterError.malformed(detail: "\(field) is not a cursor this server gave out.", field: field)
        }
        return id
    }

    /// Makes a page from up to `limit + 1` fetched items: the extra one only says there is more.
    public func page<Item>(_ fetched: [Item], id: (Item) -> UUID) -> Page<Item> {
        let items = Array(fetched.prefix(limit))
        let more = fetched.count > limit
        return Page(items: items, nextCursor: more ? items.last.map { Self.encode(id($0)) } : nil)
    }
}
