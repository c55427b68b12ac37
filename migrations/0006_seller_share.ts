import { sql, type Kysely } from 'kysely'

// Issue 15.3: the seller's share of a sale (amount − platform fee) was computed
// in seven places, in SQL and TypeScript. It is now one generated column: every
// query and every screen reads it, none computes it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE transactions ADD COLUMN seller_share_cents integer GENERATED ALWAYS AS (amount_cents - application_fee_cents) STORED`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE transactions DROP COLUMN seller_share_cents`.execute(db)
}
