import PostgresNIO

extension PostgresMigrations {
    static let notifications = PostgresMigration(
        name: "2026-11-23 notifications",
        statements: [
            """
            CREATE TABLE notifications (
                id UUID PRIMARY KEY,
                recipient_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                type TEXT NOT NULL,
                actor_id UUID REFERENCES users(id) ON DELETE CASCADE,
                post_id UUID,
                comment_id UUID,
                group_key TEXT NOT NULL,
                dedupe_key TEXT,
                detail TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL,
                seen_at TIMESTAMPTZ,
                read_at TIMESTAMPTZ,
                archived_at TIMESTAMPTZ
            )
            """,
            """
            CREATE UNIQUE INDEX notifications_dedupe ON notifications(recipient_id, dedupe_key)
            WHERE dedupe_key IS NOT NULL
            """,
            "CREATE INDEX notifications_inbox ON notifications(recipient_id, group_key, id)",
            "CREATE INDEX notifications_by_recipient ON notifications(recipient_id, id)",
            """
            CREATE TABLE notification_preferences (
                user_id UUID PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                preferences TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE push_devices (
                token TEXT PRIMARY KEY,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX push_devices_by_user ON push_devices(user_id)",
            """
            CREATE TABLE web_push_subscriptions (
                endpoint TEXT PRIMARY KEY,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                p256dh TEXT NOT NULL,
                auth TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX web_push_by_user ON web_push_subscriptions(user_id)",
            """
            CREATE TABLE known_devices (
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                device TEXT NOT NULL,
                first_seen TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (user_id, device)
            )
            """,
            """
            CREATE TABLE delivery_jobs (
                id UUID PRIMARY KEY,
                recipient_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                channel TEXT NOT NULL CHECK (channel IN ('push', 'email')),
                batch_key TEXT,
                state TEXT NOT NULL CHECK (state IN ('pending', 'retrying', 'running', 'sent', 'failed')),
                run_at TIMESTAMPTZ NOT NULL,
                leased_until TIMESTAMPTZ,
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                created_at TIMESTAMPTZ NOT NULL,
                finished_at TIMESTAMPTZ
            )
            """,
            """
            CREATE UNIQUE INDEX delivery_jobs_open_batch ON delivery_jobs(recipient_id, channel, batch_key)
            WHERE batch_key IS NOT NULL AND state = 'pending'
            """,
            """
            CREATE INDEX delivery_jobs_due ON delivery_jobs(run_at)
            WHERE state IN ('pending', 'retrying', 'running')
            """,
            """
            CREATE INDEX delivery_jobs_sent ON delivery_jobs(recipient_id, channel, finished_at)
            WHERE state = 'sent'
            """,
            """
            CREATE TABLE delivery_items (
                job_id UUID NOT NULL REFERENCES delivery_jobs(id) ON DELETE CASCADE,
                notification_id UUID NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
                channel TEXT NOT NULL,
                PRIMARY KEY (notification_id, channel)
            )
            """,
            "CREATE INDEX delivery_items_by_job ON delivery_items(job_id)",
            """
            CREATE TABLE delivery_attempts (
                id BIGSERIAL PRIMARY KEY,
                job_id UUID NOT NULL REFERENCES delivery_jobs(id) ON DELETE CASCADE,
                target TEXT NOT NULL,
                status TEXT NOT NULL,
                detail TEXT NOT NULL,
                at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX delivery_attempts_by_job ON delivery_attempts(job_id)",
        ]
    )
}
