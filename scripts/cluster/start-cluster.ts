import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { loadConfig, parseConfig } from '../../app/server/infra/env.server.ts'
import { createDb } from '../../db/connection.ts'
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../db/embedded.ts'
import { localSecret } from '../../db/local-secrets.ts'
import { migrateToLatest } from '../../db/migrate.ts'
import { assertPortFree } from '../../db/ports.ts'
import { startLocalServices, type LocalServices } from '../../emulators/local-services.ts'
import { spawnListening } from '../spawn-listening.ts'
import { maxBodyBytes, startNginx, type RunningNginx } from './nginx.ts'

/**
 * The reference deployment on one machine (issue 20): one PostgreSQL (embedded on a TCP port, or
 * DATABASE_URL), the local emulators once, N identical app instances (`server.ts`, each its own
 * process, port and data directory) sharing the database, the S3 emulator and the secrets, and
 * nginx in front of them as the load balancer and shared HTTP cache.
 *
 * `npm run cluster` (scripts/cluster.ts) is the command; the benchmark and the cluster tests call
 * startCluster() directly.
 */

const ROOT = path.resolve(import.meta.dirname, '../..')

export interface ClusterOptions {
  /** App instances behind nginx (default 2). */
  instances?: number
  /** nginx's port (default: PORT, else 3000). */
  port?: number
  /** nginx's interface (default: HOST, else 0.0.0.0). */
  host?: string
  /** Embedded database, emulator state, secrets, nginx's files, one directory per instance (default DATA_DIR). */
  dataDir?: string
  /** The environment the cluster and its instances read (default process.env); the cluster sets the rest. */
  env?: Record<string, string | undefined>
  /** Load the demo data on the first start (default: SEED_DEMO_DATA, else true with the embedded database). */
  seedDemoData?: boolean
  nginxBin?: string
  /** nginx worker processes (default 1). */
  nginxWorkers?: number | 'auto'
  log?: (message: string) => void
}

export interface ClusterInstance {
  index: number
  port: number
  url: string
  /** The running process (a new one after a restart). */
  child: ChildProcess
  /** What the instance wrote to stdout and stderr (the last 200 chunks). */
  output: () => string
  /** Resolves when this `child` has exited (however it ended). */
  exited: Promise<void>
  /** How many times the cluster has restarted it after it died. */
  restarts: number
}

export interface Cluster {
  /** nginx: where clients go. */
  url: string
  port: number
  instances: ClusterInstance[]
  databaseUrl: string
  /** The configuration every instance shares (database, secrets, emulators, TRUST_PROXY). */
  sharedEnv: Record<string, string>
  nginx: RunningNginx
  /** What the launcher's emulators offer a client of the cluster: paying at Stripe, a session without a browser. */
  services: Pick<LocalServices, 'demoStripe' | 'createSession'>
  /** Stops nginx, then the instances (SIGTERM: in-flight requests finish), the emulators, the database. */
  stop: () => Promise<void>
}

const INSTANCE_START_TIMEOUT_MS = 180_000

function withoutTestRunnerVariables(env: Record<string, string | undefined>): Record<string, string> {
  const clean: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || name.startsWith('VITEST') || name === 'TEST' || name === 'NODE_OPTIONS') continue
    clean[name] = value
  }
  return clean
}

async function waitHealthy(url: string, child: ChildProcess | undefined, output: () => string, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`${what} exited during start-up:\n${output()}`)
    const healthy = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.ok,
      () => false,
    )
    if (healthy) return
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
  throw new Error(`${what} was not healthy within ${timeoutMs / 1000} s:\n${output()}`)
}

/**
 * Starts `server.ts` as instance `index` on a port it binds itself (PORT=0) and reports
 * (scripts/spawn-listening.ts); `restart` gives it a new process on that same port, nginx's upstream for it.
 */
async function startInstance(index: number, env: Record<string, string>, log: (message: string) => void) {
  const chunks: string[] = []
  const onOutput = (chunk: Buffer, stream: 'stdout' | 'stderr') => {
    chunks.push(chunk.toString())
    if (chunks.length > 200) chunks.shift()
    if (stream === 'stderr') for (const line of chunk.toString().split('\n')) if (line.trim()) log(`instance ${index}: ${line}`)
  }
  // node itself (not npx), so the signals the cluster sends reach server.ts. Its own process group:
  // a terminal's Ctrl-C reaches the cluster script only, which stops nginx before the instances.
  const args = ['--import', 'tsx', 'server.ts']
  const exitOf = (child: ChildProcess) => new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const { child, ports } = await spawnListening(args, {
    cwd: ROOT,
    env: { ...env, PORT: '0' },
    detached: true,
    onOutput,
    what: `instance ${index}`,
    timeoutMs: INSTANCE_START_TIMEOUT_MS,
  })
  const port = ports.http!
  const instance: ClusterInstance = {
    index,
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    exited: exitOf(child),
    output: () => chunks.join(''),
    restarts: 0,
  }
  const restart = () => {
    // The build is there by now: a restart never rebuilds. The port is the one the first process bound: nginx
    // names it (a process that finds it taken meanwhile exits, and the supervisor tries again later).
    const restarted = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...env, PORT: String(port), SKIP_BUILD: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    restarted.stdout!.on('data', (chunk: Buffer) => onOutput(chunk, 'stdout'))
    restarted.stderr!.on('data', (chunk: Buffer) => onOutput(chunk, 'stderr'))
    Object.assign(instance, { child: restarted, exited: exitOf(restarted) })
    instance.restarts++
  }
  return { instance, restart }
}

/** How long the supervisor waits before restarting a dead instance: 1 s, doubling up to 30 s. */
function restartDelayMs(recentRestarts: number): number {
  return Math.min(30_000, 1_000 * 2 ** recentRestarts)
}

/** An instance that stayed up this long after a restart is healthy again: its next restart waits 1 s. */
const STABLE_AFTER_MS = 60_000

async function stopInstance(instance: ClusterInstance, timeoutMs = 30_000) {
  const { child } = instance
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  await instance.exited
  clearTimeout(timer)
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const log = options.log ?? ((message: string) => console.log(`[cluster] ${message}`))
  const baseEnv = withoutTestRunnerVariables(options.env ?? process.env)
  // The operator's configuration, checked before anything starts. The emulators are this script's,
  // whatever NODE_ENV the instances run with (the benchmark runs them in production mode).
  const env = parseConfig({ ...baseEnv, NODE_ENV: baseEnv.NODE_ENV === 'production' ? 'development' : baseEnv.NODE_ENV })
  const count = options.instances ?? 2
  if (!Number.isInteger(count) || count < 1) throw new Error(`--instances must be a whole number above 0 (got ${count})`)
  const port = options.port ?? env.PORT
  const host = options.host ?? env.HOST
  const dataDir = path.resolve(options.dataDir ?? env.DATA_DIR)
  mkdirSync(dataDir, { recursive: true })
  // PostgreSQL (run as the postgres user when we are root) and nginx's workers must reach their directories.
  chmodSync(dataDir, 0o755)
  await assertPortFree(port, 'nginx (the cluster)', 'PORT', host)

  const cleanups: Array<() => Promise<void>> = []
  const instances: ClusterInstance[] = []
  let nginx: RunningNginx | undefined
  let stopping: Promise<void> | undefined
  // The pending restarts of dead instances (supervise, below): a stop cancels them.
  const restartTimers = new Set<NodeJS.Timeout>()
  const stop = () =>
    (stopping ??= (async () => {
      log('stopping: nginx, then the instances, the emulators, the database…')
      for (const timer of restartTimers) clearTimeout(timer)
      await nginx?.stop()
      await Promise.all(instances.map((instance) => stopInstance(instance)))
      for (const cleanup of cleanups.reverse()) await cleanup()
      log('stopped')
    })())

  // A dead instance is started again on its own port (nginx's upstream for it), after a pause that
  // grows while it keeps dying (a crash loop does not spin); meanwhile nginx sends its requests to the others.
  const supervise = (instance: ClusterInstance, restart: () => void) => {
    let recentRestarts = 0
    let startedAt = Date.now()
    const watch = () =>
      void instance.exited.then(() => {
        if (stopping) return
        if (Date.now() - startedAt >= STABLE_AFTER_MS) recentRestarts = 0
        const delay = restartDelayMs(recentRestarts++)
        const how = instance.child.signalCode ?? `code ${instance.child.exitCode}`
        log(`instance ${instance.index} exited (${how}); nginx sends its requests to the others; restarting it in ${delay / 1000} s`)
        const timer = setTimeout(() => {
          restartTimers.delete(timer)
          if (stopping) return
          restart()
          startedAt = Date.now()
          watch()
          const { child } = instance
          waitHealthy(instance.url, child, instance.output, INSTANCE_START_TIMEOUT_MS, `instance ${instance.index}`).then(
            () => log(`instance ${instance.index} is back at ${instance.url} (pid ${child.pid}, restart ${instance.restarts})`),
            (error: unknown) => {
              // Died while starting: its exit is logged and it is restarted again. Up but never healthy: say so.
              if (!stopping && child.exitCode === null && child.signalCode === null)
                log(error instanceof Error ? error.message : String(error))
            },
          )
        }, delay)
        restartTimers.add(timer)
      })
    watch()
  }

  try {
    const supplied: Record<string, string> = {}
    let embedded: EmbeddedDatabase | undefined
    if (!env.DATABASE_URL) {
      log(`no DATABASE_URL: starting embedded PostgreSQL on port ${env.EMBEDDED_PG_PORT} (data in ${path.join(dataDir, 'postgres')})`)
      embedded = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port: env.EMBEDDED_PG_PORT })
      const database = embedded
      cleanups.push(() => database.stop())
      supplied.DATABASE_URL = embedded.connectionString()
    }
    if (!env.SESSION_SECRET) supplied.SESSION_SECRET = localSecret(dataDir, 'session-secret')
    if (!env.BANK_DETAILS_KEY) supplied.BANK_DETAILS_KEY = localSecret(dataDir, 'bank-details-key')

    // The emulators once, for every instance; their webhooks and redirects go through nginx.
    const services: LocalServices = await startLocalServices({ config: env, dataDir, appPort: port, log })
    cleanups.push(() => services.stop())
    const merged = { ...services.defaults, ...baseEnv, ...supplied, ...services.supplied }
    // This process's configuration too: the demo data's images are stored through the app's storage module.
    const config = loadConfig({ ...merged, NODE_ENV: env.NODE_ENV })

    const db = createDb(config.DATABASE_URL, { max: 2, applicationName: 'forkmarket-cluster' })
    try {
      const applied = await migrateToLatest(db)
      if (applied.length) log(`applied migrations: ${applied.join(', ')}`)
      if (options.seedDemoData ?? config.SEED_DEMO_DATA ?? Boolean(embedded)) {
        // Imported only now: the demo data reaches into the app's modules, which read the configuration on import.
        const { seedDemoDataOnce } = await import('../../db/seed/demo.ts')
        if (await seedDemoDataOnce(db, new Date(), { github: services.demoGithub, stripe: services.demoStripe }))
          log('loaded the demo data (first start)')
      }
    } finally {
      await db.destroy()
    }

    const sharedEnv: Record<string, string> = {
      ...merged,
      // The instances are reached through nginx only: one proxy hop, whose X-Forwarded-For is the client.
      TRUST_PROXY: baseEnv.TRUST_PROXY ?? '1',
      // Migrated and seeded above, once.
      SEED_DEMO_DATA: 'false',
    }
    if (baseEnv.NODE_ENV === 'production' && services.supplied.SMTP_URL && !baseEnv.MAIL_FROM)
      sharedEnv.MAIL_FROM = 'Forkmarket <notifications@forkmarket.localhost>'

    // One after the other: the first builds the app when the build is stale (server.ts), the others
    // reuse it; starting all at once would also compete for the two cores while the first compiles.
    for (let index = 1; index <= count; index++) {
      const instanceDir = path.join(dataDir, `instance-${index}`)
      mkdirSync(instanceDir, { recursive: true })
      const instanceEnv = {
        ...sharedEnv,
        HOST: '127.0.0.1',
        DATA_DIR: instanceDir,
        ...(index > 1 ? { SKIP_BUILD: 'true' } : {}),
      }
      const { instance, restart } = await startInstance(index, instanceEnv, log)
      instances.push(instance)
      await waitHealthy(instance.url, instance.child, instance.output, INSTANCE_START_TIMEOUT_MS, `instance ${index}`)
      log(`instance ${index} is up at ${instance.url} (pid ${instance.child.pid})`)
      supervise(instance, restart)
    }

    const nginxDir = path.join(dataDir, 'nginx')
    mkdirSync(nginxDir, { recursive: true })
    chmodSync(nginxDir, 0o755)
    nginx = await startNginx({
      dir: nginxDir,
      host,
      port,
      upstreams: instances.map((instance) => instance.port),
      workers: options.nginxWorkers ?? 1,
      maxBodyBytes: await maxBodyBytes(),
      user: process.getuid?.() === 0 ? 'root' : undefined,
      bin: options.nginxBin,
      log,
    })
    const running = nginx
    running.child.once('exit', (code, signal) => {
      if (!stopping) log(`nginx exited (${signal ?? `code ${code}`}): see ${path.join(nginxDir, 'error.log')}`)
    })
    const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`
    await waitHealthy(url, running.child, () => '', 30_000, 'nginx')
    log(`Forkmarket (${count} instances behind nginx) is running at http://localhost:${port}`)
    const { demoStripe, createSession } = services
    return {
      url,
      port,
      instances,
      databaseUrl: config.DATABASE_URL,
      sharedEnv,
      nginx: running,
      services: { demoStripe, createSession },
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}
