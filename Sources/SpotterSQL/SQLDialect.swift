/// The two databases Spotter stores in, for SQL written once for both (`SQLText`).
public enum SQLDialect: Sendable, Hashable {
    /// Named placeholders (`:id`), bound by GRDB by name.
    case sqlite
    /// Numbered placeholders (`$1`), bound by PostgresNIO in order.
    case postgres
}
