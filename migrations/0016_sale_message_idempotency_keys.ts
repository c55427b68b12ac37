import { sql, type Kysely } from 'kysely'

// POST /api/transactions/:id/messages takes an Idempotency-Key as POST /api/listings does (0015,
// decision 026): stored on the message by its INSERT, unique per author, so a retry after a lost
// answer finds the message instead of posting it twice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sale_messages
    ADD COLUMN idempotency_key text CHECK (char_length(idempotency_key) BETWEEN 1 AND 255),
    ADD COLUMN idempotency_hash text,
    ADD CONSTRAINT sale_messages_idempotency_pair CHECK ((idempotency_key IS NULL) = (idempotency_hash IS NULL))`.execute(db)
  await sql`CREATE UNIQUE INDEX sale_messages_author_idempotency_key ON sale_messages (author_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX sale_messages_author_idempotency_key`.execute(db)
  await sql`ALTER TABLE sale_messages DROP CONSTRAINT sale_messages_idempotency_pair,
    DROP COLUMN idempotency_hash, DROP COLUMN idempotency_key`.execute(db)
}
