/// The search store's statements both databases write alike. Names and words are matched each database's own
/// way (FTS5 on SQLite, pg_trgm and `to_tsvector` on PostgreSQL), so those statements stay in each adapter.
public enum SearchSQL {
    /// Hashtags of public posts the viewer may see that name no child, the most used first, that meet
    /// `condition`: the prefix, as each database's index reads it (a range on SQLite, `LIKE` on PostgreSQL).
    public static func tags(where condition: SQLText) -> SQLText {
        """
        SELECT t.tag, COUNT(*) FROM post_tags t
        JOIN posts p ON p.id = t.post_id JOIN users u ON u.id = p.author_id
        WHERE \(condition) AND p.visibility = 'public'
          AND \(PostSQL.visible) AND \(PostSQL.namesNoChild)
        GROUP BY t.tag ORDER BY COUNT(*) DESC, t.tag LIMIT \(bind: "limit")
        """
    }
}
