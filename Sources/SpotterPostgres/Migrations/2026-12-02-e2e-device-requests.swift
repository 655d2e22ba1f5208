import PostgresNIO

extension PostgresMigrations {
    /// A new device's request to be added by one of its person's devices; see the SQLite twin.
    static let e2eDeviceRequests = PostgresMigration(
        name: "2026-12-02-e2e-device-requests",
        statements: [
            """
            CREATE TABLE e2e_device_requests (
                id UUID PRIMARY KEY,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                device_id UUID NOT NULL UNIQUE,
                name TEXT NOT NULL,
                hpke_public TEXT NOT NULL,
                signing_public TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL,
                expires_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX e2e_device_requests_by_user ON e2e_device_requests(user_id, expires_at)",
        ])
}
