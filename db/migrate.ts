import { Migrator, type Kysely, type MigrationProvider } from 'kysely'
import { migrations } from '../migrations/index.ts'

const provider: MigrationProvider = { getMigrations: async () => migrations }

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Unordered: several changes are built at once, so a database may have applied 0012 before 0009
  // reaches it. Each migration only adds its own tables and columns, and none depends on a later number.
  const { error, results } = await new Migrator({ db, provider, allowUnorderedMigrations: true }).migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName)
    throw new Error(`Migration failed: ${reason}`)
  }
  return (results ?? []).map((r) => r.migrationName)
}

/**
 * The migrations this database has not applied. Production applies none at start: several instances
 * start at once, and a deployment runs them first as its release step (`db/cli.ts migrate`).
 */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const known = await new Migrator({ db, provider, allowUnorderedMigrations: true }).getMigrations()
  return known.filter((migration) => !migration.executedAt).map((migration) => migration.name)
}
