import PostgresNIO

extension PostgresMigrations {
    /// What each login (token family) signed in from, so the security page can name every login and not
    /// only the one looking at it. A table of its own rather than columns on `tokens`: a login's first
    /// tokens expire and are deleted long before the login ends. Logins from before have no row.
    static let loginDevices = PostgresMigration(
        name: "2026-11-26-r2-logins-devices",
        statements: [
            """
            CREATE TABLE login_devices (
                family UUID PRIMARY KEY,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                user_agent TEXT,
                address TEXT,
                created_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX login_devices_by_user ON login_devices(user_id)",
        ]
    )
}
