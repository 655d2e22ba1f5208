import Foundation

/// Feed cursors as the server gives them out: opaque to clients, but a client that saw a post (over the
/// socket, say) can name the place right after it, to ask for what came next (`since`).
public enum FeedCursor {
    /// The cursor of the item with this id (a post, a comment).
    public static func at(_ id: UUID) -> String {
        Base64URL.encode("c1:" + UUIDText.format(id))
    }

    /// The id inside a cursor, or nil if it is not one.
    public static func id(in cursor: String) -> UUID? {
        guard cursor.count <= 64, let text = Base64URL.decodeText(cursor), text.hasPrefix("c1:") else { return nil }
        return UUIDText.parse(String(text.dropFirst(3)))
    }
}
