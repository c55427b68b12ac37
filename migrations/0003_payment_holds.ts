import { sql, type Kysely } from 'kysely'

// Issue 14.4 / 14.9. A payment whose amount or currency differs from the sale's
// puts the sale on hold (`held`) for an admin instead of fulfilling it, and
// money that moved where the escrow cannot follow (that mismatch, a refund at
// the provider after the seller was paid out) is listed as a money exception
// until someone resolves it (issue 19 builds the full reconciliation on this).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE transactions DROP CONSTRAINT transactions_status_check`.execute(db)
  await sql`ALTER TABLE transactions ADD CONSTRAINT transactions_status_check
    CHECK (status IN ('pending_payment','paid','delivered','completed','disputed','refunded','failed','held'))`.execute(db)

  await db.schema
    .createTable('money_exceptions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('transaction_id', 'uuid', (c) => c.notNull().references('transactions.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('payment_mismatch', 'refund_after_payout')`))
    // The money concerned (what arrived, or what went back), in the provider's currency.
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    // The provider's object (payment intent or charge) it came from.
    .addColumn('provider_ref', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolved_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .execute()
  await sql`CREATE INDEX money_exceptions_open_idx ON money_exceptions (created_at DESC) WHERE resolved_at IS NULL`.execute(db)
  await sql`CREATE INDEX money_exceptions_transaction_idx ON money_exceptions (transaction_id)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('money_exceptions').ifExists().execute()
  await sql`UPDATE transactions SET status = 'failed' WHERE status = 'held'`.execute(db)
  await sql`ALTER TABLE transactions DROP CONSTRAINT transactions_status_check`.execute(db)
  await sql`ALTER TABLE transactions ADD CONSTRAINT transactions_status_check
    CHECK (status IN ('pending_payment','paid','delivered','completed','disputed','refunded','failed'))`.execute(db)
}
