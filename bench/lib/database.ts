import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { createDb } from '../../db/connection.ts'
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../db/embedded.ts'
import { migrateToLatest } from '../../db/migrate.ts'
import { enableStatementStats } from './db-stats.ts'
import { startProcess } from './processes.ts'

/**
 * Seeded PostgreSQL clusters are cached under bench/.cache/, one per listing
 * count and per version of the schema and the seeder (a change to either
 * seeds again). A run copies the cached cluster into its own fresh data
 * directory, so nothing a run does leaks into the next.
 */
export function seedKey(root: string, listings: number): string {
  const hash = createHash('sha256')
  // What decides the data: the migrations, the seeder and the option lists it draws from
  // (not db/schema.ts, which holds only TypeScript types).
  const files = [
    ...readdirSync(path.join(root, 'migrations')).map((f) => path.join('migrations', f)),
    'db/seed/bulk.ts',
    'app/lib/options.ts',
    'app/lib/tech-stack.ts',
  ].sort()
  for (const file of files) {
    const full = path.join(root, file)
    if (existsSync(full)) hash.update(file).update(readFileSync(full))
  }
  return `pg-${listings}-${hash.digest('hex').slice(0, 10)}`
}

export async function ensureSeededCluster(options: {
  root: string
  cacheDir: string
  listings: number
  pgPort: number
  log: (message: string) => void
  logFile: string
}): Promise<{ dir: string; seededNow: boolean; seedSeconds: number | null }> {
  const dir = path.join(options.cacheDir, seedKey(options.root, options.listings))
  if (existsSync(path.join(dir, 'PG_VERSION')) && existsSync(path.join(dir, 'bench-seeded'))) {
    return { dir, seededNow: false, seedSeconds: null }
  }
  const seeder = path.join(options.root, 'db', 'seed', 'bulk.ts')
  if (!existsSync(seeder)) throw new Error("db/seed/bulk.ts (the marketplace issue's bulk seeder) does not exist yet.")

  const partial = `${dir}.partial`
  rmSync(partial, { recursive: true, force: true })
  options.log(`seeding ${options.listings.toLocaleString('en')} listings into a new cached cluster (${path.relative(options.root, dir)})…`)
  const pgServer = await startEmbeddedPostgres({ dataDir: partial, port: options.pgPort })
  const started = Date.now()
  try {
    const url = pgServer.connectionString()
    const db = createDb(url, { max: 1, applicationName: 'forkmarket-bench' })
    try {
      await migrateToLatest(db)
    } finally {
      await db.destroy()
    }
    const seed = startProcess('bulk seeder', process.execPath, ['--import', 'tsx', seeder, '--listings', String(options.listings)], {
      cwd: options.root,
      env: { ...process.env, DATABASE_URL: url },
      logFile: options.logFile,
    })
    const code = await seed.exited
    if (code !== 0) throw new Error(`npm run db:seed:bulk -- --listings ${options.listings} failed (exit ${code}); see ${options.logFile}`)
    const seedSeconds = (Date.now() - started) / 1000
    options.log(`seeded in ${seedSeconds.toFixed(1)} s; VACUUM ANALYZE…`)
    // Steady state before measuring: visibility map and statistics up to date, as autovacuum would leave them.
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM listings')
      if (rows[0]!.n < options.listings) throw new Error(`the seeder loaded ${rows[0]!.n} listings, not ${options.listings}`)
      await client.query('VACUUM (ANALYZE)')
      await client.query('CHECKPOINT')
    } finally {
      await client.end()
    }
    await pgServer.stop()
    // Marks the cluster complete: a half-seeded one (Ctrl-C) is never reused.
    writeFileSync(path.join(partial, 'bench-seeded'), `${options.listings}\n`)
    rmSync(dir, { recursive: true, force: true })
    renameSync(partial, dir)
    // Clusters of the same size seeded by an older schema or seeder are never used again.
    for (const entry of readdirSync(options.cacheDir)) {
      if (entry.startsWith(`pg-${options.listings}-`) && path.join(options.cacheDir, entry) !== dir && !entry.endsWith('.partial')) {
        rmSync(path.join(options.cacheDir, entry), { recursive: true, force: true })
      }
    }
    return { dir, seededNow: true, seedSeconds }
  } catch (error) {
    await pgServer.stop().catch(() => {})
    throw error
  }
}

/** Copies the cached cluster (ownership and modes kept: PostgreSQL insists) into a fresh run directory and starts it. */
export async function startRunCluster(options: {
  cachedDir: string
  runDir: string
  pgPort: number
  log: (message: string) => void
}): Promise<EmbeddedDatabase> {
  stopStaleCluster(options.runDir)
  rmSync(options.runDir, { recursive: true, force: true })
  const copy = spawnSync('cp', ['-a', '--reflink=auto', options.cachedDir, options.runDir], { encoding: 'utf8' })
  if (copy.status !== 0) throw new Error(`copying the cached cluster failed: ${copy.stderr}`)
  rmSync(path.join(options.runDir, 'postmaster.pid'), { force: true })
  // Statements per request (the capacity model): pg_stat_statements in the copy only.
  enableStatementStats(options.runDir)
  return startEmbeddedPostgres({ dataDir: options.runDir, port: options.pgPort })
}

/** A cluster of an earlier run of ours that was killed (SIGKILL) may still be running from our run directory. */
function stopStaleCluster(runDir: string) {
  const pidFile = path.join(runDir, 'postmaster.pid')
  if (!existsSync(pidFile)) return
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10)
  if (!Number.isFinite(pid)) return
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    if (!cmdline.includes(runDir)) return
    process.kill(pid, 'SIGQUIT')
    spawnSync('sleep', ['1'])
  } catch {
    // not running
  }
}
