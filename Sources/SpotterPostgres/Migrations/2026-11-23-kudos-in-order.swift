import PostgresNIO

extension PostgresMigrations {
    // A post's first givers (the kudos preview) without ranking all of its kudos.
    static let kudosInOrder = PostgresMigration(
        name: "2026-11-23 kudos in order",
        statements: ["CREATE INDEX kudos_in_order ON kudos(post_id, created_at, user_id)"]
    )
}
