/// The analytics store's statements both databases write alike. Each groups events by day its own way
/// (SQLite's `date(…, 'unixepoch')`, PostgreSQL's `to_char`), so that statement stays in each adapter.
public enum AnalyticsSQL {
    public static let insert = SQLStatement(
        """
        INSERT INTO analytics_events (user_id, name, occurred_at, received_at, properties)
        VALUES (\(bind: "user"), \(bind: "name"), \(bind: "occurredAt"), \(bind: "receivedAt"), \(
            bind: "properties"))
        """)

    /// The most frequent events since a time, then by name.
    public static let topEvents = SQLStatement(
        """
        SELECT name, COUNT(*)\(sqlite: "", postgres: "::BIGINT") FROM analytics_events WHERE occurred_at >= \(
            bind: "since")
        GROUP BY name ORDER BY 2 DESC, name LIMIT \(bind: "limit")
        """)
}
