/**
 * `npm run scan:sqlmap` — runs Debian's sqlmap (--level 5 --risk 3 --batch)
 * against the search endpoints of an app on a throwaway database and fails
 * if any parameter is reported injectable.
 */
import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../../db/ports.ts'
import { startApp, stopApp } from './support.ts'

if (!existsSync('/usr/bin/sqlmap')) {
  console.error('sqlmap is missing: apt-get install -y sqlmap')
  process.exit(1)
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forkmarket-sqlmap-'))
// mkdtemp makes it 0700; embedded PostgreSQL's initdb (run as the postgres user under root) must enter it.
chmodSync(dataDir, 0o755)
const { child: app, url: base } = await startApp({
  DATA_DIR: dataDir,
  // PostgreSQL cannot bind port 0 and say which it got: its port is probed (db/ports.ts).
  EMBEDDED_PG_PORT: String(await freePort()),
  RATE_LIMIT_MULTIPLIER: '1000',
  LOG_SILENT: 'true',
})

const query =
  'search=react&type=template&licence=commercial&minPrice=1&maxPrice=500&languages=TypeScript&frameworks=React&dependencies=Stripe&hasSetupCall=true&sortBy=newest'
const targets = [
  { url: `${base}/api/listings?${query}`, extra: [] },
  // Every page carries a fresh CSP nonce, so no two responses are byte-identical: compare the text only.
  { url: `${base}/marketplace?${query}`, extra: ['--text-only'] },
]
/**
 * sqlmap's output. Asynchronous on purpose: this process must keep reading the
 * app's stdout and stderr pipes while sqlmap runs (a synchronous spawn blocked
 * it, the pipes filled, and the app stalled writing a log line mid-request).
 */
function runSqlmap(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('sqlmap', args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.once('error', reject)
    child.once('close', () => resolve(out))
  })
}

const injectable: string[] = []
const startedAt = Date.now()
try {
  for (const { url, extra } of targets) {
    const outputDir = mkdtempSync(path.join(os.tmpdir(), 'sqlmap-out-'))
    const started = Date.now()
    const out = await runSqlmap(
      // The backend is known (PostgreSQL): testing other DBMSes' payloads would only multiply the run time.
      [
        '-u',
        url,
        '--level',
        '5',
        '--risk',
        '3',
        '--batch',
        '--dbms',
        'PostgreSQL',
        '--disable-coloring',
        '--output-dir',
        outputDir,
        '--flush-session',
        '--threads',
        '4',
        ...extra,
      ],
    )
    console.log(
      `${new URL(url).pathname}: ${Math.round((Date.now() - started) / 1000)} s, ${(out.match(/\btesting '/g) ?? []).length} techniques tried`,
    )
    const found = [...out.matchAll(/Parameter: ([^\s(]+) \(/g)].map((m) => `${new URL(url).pathname} ${m[1]}`)
    injectable.push(...found)
    const verdict = found.length
      ? `INJECTABLE: ${found.join(', ')}`
      : /do not appear to be injectable|not injectable/i.test(out)
        ? 'no injectable parameter'
        : 'inconclusive'
    console.log(`${new URL(url).pathname}: ${verdict}`)
    if (verdict === 'inconclusive') {
      console.log(out.split('\n').slice(-30).join('\n'))
      process.exitCode = 1
    }
    rmSync(outputDir, { recursive: true, force: true })
  }
} finally {
  await stopApp(app)
  rmSync(dataDir, { recursive: true, force: true })
}
console.log(
  JSON.stringify({
    date: new Date().toISOString(),
    seconds: Math.round((Date.now() - startedAt) / 1000),
    injectableParameters: injectable.length,
  }),
)
if (injectable.length) process.exitCode = 1
