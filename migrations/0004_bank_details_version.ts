import { sql, type Kysely } from 'kysely'

// Issue 14.1: an approval names the exact version the admin reviewed. Every
// real change of the seller's details bumps the version; approve/reject are
// guarded on it, so details saved after the admin opened them are never
// approved unseen.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bank_details ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bank_details DROP COLUMN version`.execute(db)
}
