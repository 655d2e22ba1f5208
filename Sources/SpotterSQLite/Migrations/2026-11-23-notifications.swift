import GRDB

extension SQLiteMigrations {
    static let notifications = SQLiteMigration(name: "2026-11-23 notifications") { db in
        // A notification is in at most one job per channel (delivery_items' key); a recipient has at most
        // one pending job per batch key, which later notifications of the batch join.
        try db.execute(
            sql: """
                CREATE TABLE notifications (
                    id TEXT PRIMARY KEY NOT NULL,
                    recipient_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    type TEXT NOT NULL,
                    actor_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                    post_id TEXT,
                    comment_id TEXT,
                    group_key TEXT NOT NULL,
                    dedupe_key TEXT,
                    detail TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    seen_at REAL,
                    read_at REAL,
                    archived_at REAL
                );
                CREATE UNIQUE INDEX notifications_dedupe ON notifications(recipient_id, dedupe_key)
                    WHERE dedupe_key IS NOT NULL;
                CREATE INDEX notifications_inbox ON notifications(recipient_id, group_key, id);
                CREATE INDEX notifications_by_recipient ON notifications(recipient_id, id);
                CREATE TABLE notification_preferences (
                    user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    preferences TEXT NOT NULL
                );
                CREATE TABLE push_devices (
                    token TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at REAL NOT NULL
                );
                CREATE INDEX push_devices_by_user ON push_devices(user_id);
                CREATE TABLE web_push_subscriptions (
                    endpoint TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    p256dh TEXT NOT NULL,
                    auth TEXT NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE INDEX web_push_by_user ON web_push_subscriptions(user_id);
                CREATE TABLE known_devices (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    device TEXT NOT NULL,
                    first_seen REAL NOT NULL,
                    PRIMARY KEY (user_id, device)
                );
                CREATE TABLE delivery_jobs (
                    id TEXT PRIMARY KEY NOT NULL,
                    recipient_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    channel TEXT NOT NULL CHECK (channel IN ('push', 'email')),
                    batch_key TEXT,
                    state TEXT NOT NULL CHECK (state IN ('pending', 'retrying', 'running', 'sent', 'failed')),
                    run_at REAL NOT NULL,
                    leased_until REAL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    created_at REAL NOT NULL,
                    finished_at REAL
                );
                CREATE UNIQUE INDEX delivery_jobs_open_batch ON delivery_jobs(recipient_id, channel, batch_key)
                    WHERE batch_key IS NOT NULL AND state = 'pending';
                CREATE INDEX delivery_jobs_due ON delivery_jobs(run_at) WHERE state IN ('pending', 'retrying', 'running');
                CREATE INDEX delivery_jobs_sent ON delivery_jobs(recipient_id, channel, finished_at) WHERE state = 'sent';
                CREATE TABLE delivery_items (
                    job_id TEXT NOT NULL REFERENCES delivery_jobs(id) ON DELETE CASCADE,
                    notification_id TEXT NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
                    channel TEXT NOT NULL,
                    PRIMARY KEY (notification_id, channel)
                );
                CREATE INDEX delivery_items_by_job ON delivery_items(job_id);
                CREATE TABLE delivery_attempts (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    job_id TEXT NOT NULL REFERENCES delivery_jobs(id) ON DELETE CASCADE,
                    target TEXT NOT NULL,
                    status TEXT NOT NULL,
                    detail TEXT NOT NULL,
                    at REAL NOT NULL
                );
                CREATE INDEX delivery_attempts_by_job ON delivery_attempts(job_id);
                """)
    }
}
