import { sql, type Kysely } from 'kysely'

/**
 * Issue 17: notifications (docs/decisions/016-notifications-outbox.md).
 *
 * - `notification_outbox`: one e-mail to send, written in the same database transaction as the
 *   change that causes it. `dedupe_key` (event + sale/user + recipient) is unique, so a replayed
 *   webhook or a racing request writes nothing twice. The sender (a graphile-worker job per row)
 *   sets `sent_at` once; `skipped_at` records a mail that was not sent on purpose (the recipient
 *   turned that kind off, or the sale moved on). `batch_key` groups an unsent row that later
 *   events of the same kind merge into (one mail for several messages within minutes): at most
 *   one unsent row per batch key.
 * - `notifications`: the in-app list behind the header's bell, one row per event and recipient
 *   (the same dedupe key), read or not.
 * - `notification_preferences`: the optional kinds a user can turn off (reminders, digests) and
 *   the time zone their mails show times in (UTC when not set).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE notification_outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      dedupe_key text NOT NULL UNIQUE CHECK (length(dedupe_key) BETWEEN 1 AND 300),
      batch_key text CHECK (length(batch_key) BETWEEN 1 AND 300),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind ~ '^[a-z][a-z_]{1,60}$'),
      payload jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      send_after timestamptz NOT NULL DEFAULT now(),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      last_error text,
      last_attempt_at timestamptz,
      sent_at timestamptz,
      message_id text,
      skipped_at timestamptz,
      skip_reason text,
      CONSTRAINT notification_outbox_sent_or_skipped CHECK (sent_at IS NULL OR skipped_at IS NULL),
      CONSTRAINT notification_outbox_sent_has_message CHECK (sent_at IS NULL OR message_id IS NOT NULL)
    )`.execute(db)
  // What is left to send, oldest due first (the sender's sweep).
  await sql`CREATE INDEX notification_outbox_due_idx ON notification_outbox (send_after) WHERE sent_at IS NULL AND skipped_at IS NULL`.execute(
    db,
  )
  // At most one open batch per key: later events merge into it until it is sent.
  await sql`
    CREATE UNIQUE INDEX notification_outbox_open_batch_idx ON notification_outbox (batch_key)
    WHERE batch_key IS NOT NULL AND sent_at IS NULL AND skipped_at IS NULL`.execute(db)
  await sql`CREATE INDEX notification_outbox_user_idx ON notification_outbox (user_id, created_at DESC)`.execute(db)

  await sql`
    CREATE TABLE notifications (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      dedupe_key text NOT NULL UNIQUE CHECK (length(dedupe_key) BETWEEN 1 AND 300),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind ~ '^[a-z][a-z_]{1,60}$'),
      title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
      body text NOT NULL CHECK (length(body) <= 1000),
      link text CHECK (link ~ '^/'),
      read_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
  // The page (newest first, keyset) and the bell's unread count.
  await sql`CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC, id DESC)`.execute(db)
  await sql`CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL`.execute(db)

  await sql`
    CREATE TABLE notification_preferences (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      reminders boolean NOT NULL DEFAULT true,
      digests boolean NOT NULL DEFAULT true,
      time_zone text CHECK (length(time_zone) BETWEEN 1 AND 64),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS notification_preferences`.execute(db)
  await sql`DROP TABLE IF EXISTS notifications`.execute(db)
  await sql`DROP TABLE IF EXISTS notification_outbox`.execute(db)
}
