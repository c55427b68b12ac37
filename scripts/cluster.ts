/**
 * `npm run cluster` — the reference deployment on this machine (issue 20): one PostgreSQL, the
 * emulators, N app instances and nginx as the load balancer in front of them on PORT (3000).
 *
 *   npm run cluster                        # 2 instances behind nginx at http://localhost:3000
 *   npm run cluster -- --instances 3 --port 8080
 *
 * The same variables as `npm start` (DATABASE_URL, DATA_DIR, EMBEDDED_PG_PORT, the emulators'
 * ports…); PORT and HOST are nginx's. Ctrl-C (SIGINT) or SIGTERM stops everything in order.
 */
import { spawn } from 'node:child_process'
import { parseArgs } from 'node:util'
import { ConfigError, quietAwsSdkNodeNotice } from '../app/server/infra/env.server.ts'
import { EmbeddedPostgresError } from '../db/embedded.ts'
import { PortInUseError } from '../db/ports.ts'
import { startCluster } from './cluster/start-cluster.ts'

const { values } = parseArgs({
  options: {
    instances: { type: 'string', short: 'n', default: '2' },
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    'nginx-workers': { type: 'string', default: '1' },
    nginx: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    'own-process-group': { type: 'boolean' },
  },
})

function positive(name: string, value: string): number {
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1) {
    console.error(`[cluster] --${name} must be a whole number above 0 (got ${JSON.stringify(value)})`)
    process.exit(2)
  }
  return number
}

async function main() {
  // The instances inherit it: the AWS SDK's Node 20 notice is not printed by each process.
  quietAwsSdkNodeNotice()
  try {
    const workers = values['nginx-workers'] === 'auto' ? 'auto' : positive('nginx-workers', values['nginx-workers']!)
    const cluster = await startCluster({
      instances: positive('instances', values.instances!),
      port: values.port === undefined ? undefined : positive('port', values.port),
      host: values.host,
      nginxBin: values.nginx,
      nginxWorkers: workers,
    })
    let signalled = false
    const onSignal = (signal: string) => {
      if (signalled) return
      signalled = true
      console.log(`[cluster] ${signal}`)
      void cluster.stop().then(() => process.exit(0))
    }
    process.on('SIGINT', () => onSignal('SIGINT'))
    process.on('SIGTERM', () => onSignal('SIGTERM'))
    // Never leave children behind: whatever ends this process kills what is still running.
    process.on('exit', () => {
      for (const child of [cluster.nginx.child, ...cluster.instances.map((instance) => instance.child)]) {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      }
    })
  } catch (error) {
    // Reasons already worded for the operator (PostgreSQL's own log lines, a port in use): no stack.
    if (error instanceof PortInUseError || error instanceof EmbeddedPostgresError) console.error(`[cluster] ${error.message}`)
    else if (error instanceof ConfigError)
      for (const problem of error.problems) console.error(`[cluster] invalid configuration: ${problem}`)
    else console.error(`[cluster] failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    process.exit(1)
  }
}

if (values.help) {
  console.log(
    'npm run cluster -- [--instances N (2)] [--port P (PORT, 3000)] [--host H (HOST)] [--nginx-workers N|auto (1)] [--nginx /usr/sbin/nginx]',
  )
} else if (values['own-process-group']) {
  await main()
} else {
  // A terminal's Ctrl-C (and a test runner's stop) signals the whole process group. The embedded
  // PostgreSQL is a child of the process that starts it and would get the signal too, and shut down
  // while the instances still finish their requests. So the cluster runs in a process group of its
  // own, and this process passes the signal on: the cluster stops nginx, the instances, the
  // emulators and the database, in that order.
  const args = ['--import', 'tsx', import.meta.filename, ...process.argv.slice(2), '--own-process-group']
  const child = spawn(process.execPath, args, { stdio: 'inherit', detached: true })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}
