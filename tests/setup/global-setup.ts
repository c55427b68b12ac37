import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { createDb } from '../../db/connection.ts'
import { startEmbeddedPostgres } from '../../db/embedded.ts'
import { migrateToLatest } from '../../db/migrate.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabaseUrl: string
    adminDatabaseUrl: string
  }
}

/**
 * One real PostgreSQL for the whole integration run. A template database gets
 * every migration once; each worker clones it into a database of its own.
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forkmarket-test-pg-'))
  // No port: one is chosen, and another if it is taken before PostgreSQL binds it (issue 26.18).
  const pg = await startEmbeddedPostgres({ dataDir, database: 'forkmarket_template' })
  const db = createDb(pg.connectionString('forkmarket_template'), { max: 1 })
  try {
    await migrateToLatest(db)
  } catch (error) {
    await pg.stop()
    throw error
  } finally {
    await db.destroy()
  }
  project.provide('templateDatabaseUrl', pg.connectionString('forkmarket_template'))
  project.provide('adminDatabaseUrl', pg.connectionString('postgres'))
  return async () => {
    await pg.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
