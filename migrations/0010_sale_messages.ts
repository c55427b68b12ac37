import { sql, type Kysely } from 'kysely'

/**
 * Issue 18: a message thread per sale (docs/decisions/019).
 *
 * - `sale_messages`: what the buyer and the seller of a sale wrote to each other, plain text of
 *   1–5,000 characters, oldest first. The author is always one of the sale's two parties (checked
 *   by app/server/domain/sale-messages.server.ts, and by the trigger below so no other writer can
 *   slip a third person into a thread). Messages are never edited or deleted by the app: the
 *   thread is evidence in a dispute (the admin's timeline reads it).
 * - No read markers: the other party learns of a new message from the notification (in the app
 *   and by e-mail, batched); the thread itself is the record.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sale_messages (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      transaction_id uuid NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
      author_id uuid NOT NULL REFERENCES users(id),
      body text NOT NULL CHECK (length(body) BETWEEN 1 AND 5000 AND length(trim(body)) > 0),
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
  // The thread, oldest first (and its newest message for the notification).
  await sql`CREATE INDEX sale_messages_thread_idx ON sale_messages (transaction_id, created_at, id)`.execute(db)
  await sql`
    CREATE FUNCTION sale_messages_author_is_party() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT EXISTS (
        SELECT 1 FROM transactions t
        WHERE t.id = NEW.transaction_id AND NEW.author_id IN (t.buyer_id, t.seller_id)
      ) THEN
        RAISE EXCEPTION 'sale_messages: the author must be the buyer or the seller of the sale' USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$`.execute(db)
  await sql`
    CREATE TRIGGER sale_messages_author_is_party BEFORE INSERT OR UPDATE ON sale_messages
    FOR EACH ROW EXECUTE FUNCTION sale_messages_author_is_party()`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS sale_messages`.execute(db)
  await sql`DROP FUNCTION IF EXISTS sale_messages_author_is_party()`.execute(db)
}
