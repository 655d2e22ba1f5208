import GRDB

extension SQLiteMigrations {
    /// A new device's request to be added by one of its person's devices (`E2EStore`'s device requests,
    /// docs/encryption.md, "Approving a new device"): its public registration until it is approved, declined, or
    /// expires. A device id waits in one request at most.
    static let e2eDeviceRequests = SQLiteMigration(name: "2026-12-02-e2e-device-requests") { db in
        try db.execute(
            sql: """
                CREATE TABLE e2e_device_requests (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    device_id TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    hpke_public TEXT NOT NULL,
                    signing_public TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    expires_at REAL NOT NULL
                );
                CREATE INDEX e2e_device_requests_by_user ON e2e_device_requests(user_id, expires_at);
                """)
    }
}
