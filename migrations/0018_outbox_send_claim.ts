import { sql, type Kysely } from 'kysely'

// Issue 27.2: no network call while a transaction holds a row lock. The outbox sender used to keep
// its row locked (FOR UPDATE) while it talked to the SMTP server; it now claims the row in a short
// transaction (`sending_since`), sends with no lock held, then marks it sent. A claim older than an
// SMTP attempt can last is stale (the sender crashed) and may be taken over.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE notification_outbox ADD COLUMN sending_since timestamptz`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE notification_outbox DROP COLUMN sending_since`.execute(db)
}
