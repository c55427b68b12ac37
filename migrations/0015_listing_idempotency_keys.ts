import { sql, type Kysely } from 'kysely'

// A client that retries POST /api/listings after losing the answer (an instance died mid-request,
// a timeout) sends the same Idempotency-Key: the key is stored on the listing it created, in the
// same INSERT, so the retry finds that listing instead of making a second one. The request's hash
// tells a retry from a different listing sent with a reused key. Decision 026.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE listings
    ADD COLUMN idempotency_key text CHECK (char_length(idempotency_key) BETWEEN 1 AND 255),
    ADD COLUMN idempotency_hash text,
    ADD CONSTRAINT listings_idempotency_pair CHECK ((idempotency_key IS NULL) = (idempotency_hash IS NULL))`.execute(db)
  await sql`CREATE UNIQUE INDEX listings_seller_idempotency_key ON listings (seller_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX listings_seller_idempotency_key`.execute(db)
  await sql`ALTER TABLE listings DROP CONSTRAINT listings_idempotency_pair,
    DROP COLUMN idempotency_hash, DROP COLUMN idempotency_key`.execute(db)
}
