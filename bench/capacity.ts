/**
 * The capacity model's figures (docs/capacity.md), derived from a benchmark's results with the
 * arithmetic printed beside each one:
 *
 *   npx tsx bench/capacity.ts [bench/results/latest.json]   → Markdown on stdout
 *
 * Inputs are measured (`capacityInputs`, `throughCache` and `openLoop` in the results); the only
 * chosen parameters are named below (PLAN_UTILISATION, the pools' sizes, PostgreSQL's limits).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { BenchResults } from './lib/report.ts'

/** Plan each core at half its measured maximum: the open-loop runs show the tail is acceptable there and not at 80 %. */
const PLAN_UTILISATION = 0.5
/** The app's pool (DB_POOL_MAX default) and graphile-worker's (concurrency 2 + 2), per instance. */
const APP_POOL = 10
const WORKER_POOL = 4
/** PostgreSQL's default max_connections and superuser_reserved_connections. */
const MAX_CONNECTIONS = 100
const RESERVED = 3

const file = process.argv[2] ?? path.join(import.meta.dirname, 'results', 'latest.json')
const r = JSON.parse(readFileSync(file, 'utf8')) as BenchResults
const inputs = r.capacityInputs.perTarget
const f = (x: number, digits = 0) => x.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits })
const out: string[] = []
const say = (line = '') => out.push(line)

say(
  `Derived by \`npx tsx bench/capacity.ts\` from \`${path.relative(process.cwd(), file)}\` (\`${r.command}\`, ${r.date.slice(0, 16)} UTC).`,
)
say()
say('### Measured per request')
say()
say(
  '| | server CPU ms (s) | PostgreSQL CPU ms, net (p) | statements | PostgreSQL execution ms | connection-ms (Little) | requests/s per server core = 1000/s | per PostgreSQL core = 1000/p |',
)
say('|---|--:|--:|--:|--:|--:|--:|--:|')
for (const id of ['A', 'B', 'C'] as const) {
  const x = inputs[id]
  if (!x) continue
  say(
    `| ${id} | ${f(x.serverCpuMs, 2)} | ${f(x.postgresCpuMs, 2)} | ${x.statements ?? '–'} | ${x.postgresExecMs === null ? '–' : f(x.postgresExecMs, 2)} | ` +
      `${x.connectionMsPerRequest === null ? '–' : f(x.connectionMsPerRequest, 1)} | ${f(1000 / x.serverCpuMs)} | ${x.postgresCpuMs > 0 ? f(1000 / x.postgresCpuMs) : '–'} |`,
  )
}
say()
say(
  `PostgreSQL's background (job worker polling, autovacuum, checkpointer), measured while only E and F ran, was ` +
    `${f(r.capacityInputs.postgresBackgroundCpuMsPerSecond, 1)} ms of CPU per second and is taken off p at each target's rate.`,
)
say()

say(`### One instance (one Node process ≈ one core), planned at ${PLAN_UTILISATION * 100} % of its maximum`)
say()
for (const id of ['A', 'B', 'C'] as const) {
  const x = inputs[id]
  if (!x) continue
  const rate = (PLAN_UTILISATION * 1000) / x.serverCpuMs
  const held = Math.max(x.connectionMsPerRequest ?? 0, x.postgresExecMs ?? 0)
  const busy = (rate * held) / 1000
  say(
    `- ${id}: ${PLAN_UTILISATION} × 1000 / ${f(x.serverCpuMs, 2)} = **${f(rate)} req/s**; connections busy on average = ` +
      `${f(rate)} × ${f(held, 2)} ms / 1000 = **${f(busy, 2)}** (of the pool's ${APP_POOL}).`,
  )
}
say()

say('### A 16-core machine running everything (instances, PostgreSQL, nginx)')
say()
for (const id of ['A', 'B', 'C'] as const) {
  const x = inputs[id]
  if (!x) continue
  const perRequest = x.serverCpuMs + x.postgresCpuMs
  const rate = (PLAN_UTILISATION * 16 * 1000) / perRequest
  const appCores = (16 * x.serverCpuMs) / perRequest
  say(
    `- ${id}: ${PLAN_UTILISATION} × 16 × 1000 / (${f(x.serverCpuMs, 2)} + ${f(x.postgresCpuMs, 2)}) = **${f(rate)} req/s**, ` +
      `with 16 × ${f(x.serverCpuMs, 2)} / ${f(perRequest, 2)} = ${f(appCores, 1)} cores for instances (→ ${Math.max(1, Math.round(appCores))} instances) and the rest for PostgreSQL.`,
  )
}
say()

say('### Connections and when a pooler is needed')
say()
const perInstance = APP_POOL + WORKER_POOL
const usable = MAX_CONNECTIONS - RESERVED
const withoutPooler = Math.floor(usable / perInstance)
say(
  `- Each instance may open ${APP_POOL} (app pool, \`DB_POOL_MAX\`) + ${WORKER_POOL} (graphile-worker: concurrency 2 + 2) = **${perInstance}** connections; ` +
    `the benchmark saw the app's pool open all ${APP_POOL} under load (${['A', 'B', 'C']
      .map((id) => `${id} ${inputs[id]?.peakOpenConnections ?? '–'}`)
      .join(', ')}).`,
)
say(
  `- PostgreSQL's default max_connections ${MAX_CONNECTIONS} − ${RESERVED} reserved = ${usable} usable: ⌊${usable} / ${perInstance}⌋ = **${withoutPooler} instances** without a pooler.`,
)
for (const n of [2, 8, 16, 32]) {
  const total = n * perInstance
  say(
    `- ${n} instances: ${n} × ${perInstance} = ${total} connections — ${total <= usable ? 'fits' : '**needs PgBouncer** (or a smaller DB_POOL_MAX and a larger max_connections)'}.`,
  )
}
say()

say('### Several machines')
say()
for (const id of ['A', 'B', 'C'] as const) {
  const x = inputs[id]
  if (!x || x.postgresCpuMs <= 0) continue
  const appMachine = (PLAN_UTILISATION * 16 * 1000) / x.serverCpuMs
  const dbMachine = (PLAN_UTILISATION * 16 * 1000) / x.postgresCpuMs
  say(
    `- ${id}: a 16-core app machine serves ${PLAN_UTILISATION} × 16 × 1000 / ${f(x.serverCpuMs, 2)} = **${f(appMachine)} req/s**; ` +
      `a 16-core PostgreSQL machine serves ${PLAN_UTILISATION} × 16 × 1000 / ${f(x.postgresCpuMs, 2)} = **${f(dbMachine)} req/s**, ` +
      `so it feeds ${f(dbMachine, 0)} / ${f(appMachine, 0)} ≈ **${f(dbMachine / appMachine, 1)}** app machines before it is the limit.`,
  )
}
say()

if (r.throughCache) {
  say("### Anonymous pages through nginx's cache")
  say()
  for (const id of ['B', 'C'] as const) {
    const t = r.throughCache.targets[id]
    const x = inputs[id]
    if (!t || !x) continue
    const total = Object.values(t.cacheStatuses).reduce((a, b) => a + b, 0)
    const misses = total ? 1 - (t.cacheStatuses.HIT ?? 0) / total : 1
    say(
      `- ${id}: hit ratio ${f(t.hitRatio * 100, 1)} % (${Object.entries(t.cacheStatuses)
        .map(([k, v]) => `${k} ${v}`)
        .join(
          ', ',
        )}), ${f(t.requestsPerSecond)} req/s through nginx with ${r.throughCache.instances} instances behind it on this machine; ` +
        `${f(t.cpuMsPerRequest, 3)} ms of CPU per request (nginx + instances). ` +
        (misses >= 0.01
          ? `The instances render only the misses, ${f(misses * 100, 1)} %: per server core 1000 / ${f(x.serverCpuMs, 2)} / ${f(misses, 3)} = ${f(1000 / x.serverCpuMs / misses)} anonymous req/s.`
          : `${total - (t.cacheStatuses.HIT ?? 0)} of ${total} were not plain HITs (misses, or stale copies served while nginx revalidates in the background): the limit is nginx (and the load generator beside it), not the app, whose load is one render per page per TTL (decision 023: 10 s fresh + 20 s stale-while-revalidate) whatever the rate.`),
    )
  }
  say()
}
console.log(out.join('\n'))
