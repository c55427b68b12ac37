import type { StatementCount } from './db-stats.ts'
import type { QueryPlanSummary } from './explain.ts'
import type { LighthouseSummary } from './lighthouse.ts'
import type { OpenLoopReport } from './open-loop.ts'
import type { BenchQuery } from './workload.ts'
import type { LoadResult } from './wrk.ts'

export interface TargetResult {
  label: string
  url: string
  /** How many distinct paths the load generator cycled through. */
  paths: number
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  /** CPU time of the server's process tree per request (user + system, /proc), and PostgreSQL's. */
  cpuMsPerRequest: number
  pgCpuMsPerRequest: number
  /** The server's pool, sampled in pg_stat_activity during the measurement (A, B, C: the app; D: the floor). */
  peakDbConnections: { open: number; active: number; meanActive: number } | null
  /** Largest resident memory of the server's process tree sampled while this target was measured. */
  peakRssMB: number
  /** The kernel's high-water mark (VmHWM) of the server process when the target's rounds ended. */
  serverPeakRssMB: number
  rounds: Array<LoadResult & { peakRssMB: number; cpuMsPerRequest: number; pgCpuMsPerRequest: number }>
}

export interface BenchResults {
  command: string
  date: string
  smoke: boolean
  cores: number
  machine: { cores: number; cpu: string; memoryMB: number; node: string; loadAverageAtEnd: number[] }
  tool: string
  method: Record<string, unknown>
  listings: number
  seeding: { cached: boolean; seconds: number | null }
  queries: BenchQuery[]
  workloadMatches: Record<string, number>
  checks: Record<string, unknown>
  explain: QueryPlanSummary[]
  targets: Record<string, TargetResult>
  'A/D': number
  'B/E': number
  'C/E': number
  'B/F': number
  'C/F': number
  /** Floor G (issue 28.2): B and C over the app's own build served by React Router with loaders answering from memory. */
  'B/G': number
  'C/G': number
  /** Issue 28.3: B and C signed in (a buyer with 50 purchases) over floor G serving the same signed-in documents (GBS, GCS). */
  'B signed in/G': number
  'C signed in/G': number
  /** … and over the anonymous floor G (GB, GC), reported: what signing in costs in all. */
  'B signed in/anonymous G'?: number
  'C signed in/anonymous G'?: number
  /** G over F: what the framework costs over React alone (reported). */
  'G/F (B)': number
  'G/F (C)': number
  /** Closed loop (wrk at saturation): reported, no longer a budget (issue 20). */
  'p99(A)/p99(D)': number
  /**
   * Open loop, A at 50 % and 80 % of A's own closed-loop maximum against D at that share of D's: the
   * tail-latency budgets (issue 28.1; a queue a slower server builds at a rate it cannot sustain measures
   * throughput again, which A/D already answers).
   */
  'p99(A)/p99(D) at 50 %': number
  'p99(A)/p99(D) at 80 %': number
  /** Both at the same rate, 50 % and 80 % of D's maximum: reported, not a budget. */
  "p99(A)/p99(D) at 50 % of D's max": number | null
  "p99(A)/p99(D) at 80 % of D's max": number | null
  openLoop: OpenLoopReport | null
  statementsPerRequest: Record<string, StatementCount> | null
  capacityInputs: {
    postgresBackgroundCpuMsPerSecond: number
    perTarget: Record<
      string,
      {
        serverCpuMs: number
        postgresCpuMs: number
        requestsPerServerCore: number
        requestsPerPostgresCore: number | null
        statements: number | null
        postgresExecMs: number | null
        connectionMsPerRequest: number | null
        peakOpenConnections: number | null
      }
    >
  }
  /** Anonymous B and C through nginx's shared cache (npm run cluster). */
  throughCache: {
    instances: number
    method: string
    targets: Record<'B' | 'C', TargetResult & { cacheStatuses: Record<string, number>; hitRatio: number }>
  } | null
  ratiosByRound: Array<Record<string, number | null>>
  scale: {
    listings: number
    checks: Record<string, unknown>
    explain: QueryPlanSummary[]
    targets: Record<string, TargetResult>
    'A/D': number
    'p99(A)/p99(D)': number
    'p99(A)/p99(A at base)': number
  } | null
  appMemory: { serverPeakRssMB: number }
  firstVisitJs: {
    pages: Record<string, { gzipKB: number; rawKB: number; files: unknown[]; stripeFiles: string[] }>
    floorE: { gzipKB: number; rawKB: number; files: unknown[] }
    ratios: Record<string, number>
  }
  lighthouse: Record<string, LighthouseSummary | { error: string }> | null
  warnings: string[]
  durationS: number
  budgets?: Budget[]
}

/** Keys a reader of bench/results/*.json can rely on (the issue names the four ratios exactly). */
export const REQUIRED_KEYS = [
  'date',
  'cores',
  'machine',
  'tool',
  'listings',
  'targets',
  'A/D',
  'B/E',
  'C/E',
  'B/F',
  'C/F',
  'B/G',
  'C/G',
  'p99(A)/p99(D)',
  'p99(A)/p99(D) at 50 %',
  'p99(A)/p99(D) at 80 %',
  'firstVisitJs',
] as const

export interface Budget {
  name: string
  value: number | null
  limit: string
  pass: boolean | null
}

export function budgets(r: BenchResults): Budget[] {
  const check = (name: string, value: number | null | undefined, op: '>=' | '<=', limit: number): Budget => ({
    name,
    value: value ?? null,
    limit: `${op === '>=' ? '≥' : '≤'} ${limit}`,
    pass: value === null || value === undefined ? null : op === '>=' ? value >= limit : value <= limit,
  })
  // Reported beside the budgets, no longer budgets themselves (issue 20): the closed-loop tail and the empty-page floor.
  const reported = (name: string, value: number | null | undefined): Budget => ({
    name,
    value: value ?? null,
    limit: 'reported',
    pass: null,
  })
  const list = [
    check('A/D', r['A/D'], '>=', 0.6),
    check('p99(A)/p99(D), open loop, each at 50 % of its own max', r['p99(A)/p99(D) at 50 %'], '<=', 1.5),
    check('p99(A)/p99(D), open loop, each at 80 % of its own max', r['p99(A)/p99(D) at 80 %'], '<=', 2),
    // Issue 28.1: the app process alone (the emulators run in processes of their own in the benchmark).
    check('peak RSS of the app process under the benchmark, MB', r.appMemory?.serverPeakRssMB, '<=', 400),
    check('B/G', r['B/G'], '>=', 0.8),
    check('C/G', r['C/G'], '>=', 0.8),
    check('B signed in/G', r['B signed in/G'], '>=', 0.8),
    check('C signed in/G', r['C signed in/G'], '>=', 0.8),
    reported('B signed in/anonymous G', r['B signed in/anonymous G']),
    reported('C signed in/anonymous G', r['C signed in/anonymous G']),
    // Floor F stays, reported (issue 28.2): G is the fastest these pages can be on React Router.
    reported('B/F', r['B/F']),
    reported('C/F', r['C/F']),
    reported('G/F for the marketplace page', r['G/F (B)']),
    reported('G/F for the listing page', r['G/F (C)']),
    reported("p99(A)/p99(D), open loop, both at 50 % of D's max", r["p99(A)/p99(D) at 50 % of D's max"]),
    reported("p99(A)/p99(D), open loop, both at 80 % of D's max", r["p99(A)/p99(D) at 80 % of D's max"]),
    reported('p99(A)/p99(D), closed loop at saturation', r['p99(A)/p99(D)']),
    reported('B/E', r['B/E']),
    reported('C/E', r['C/E']),
  ]
  if (r.scale)
    list.push(
      check(
        `p99(A) at ${r.scale.listings.toLocaleString('en')} / at ${r.listings.toLocaleString('en')}`,
        r.scale['p99(A)/p99(A at base)'],
        '<=',
        2,
      ),
    )
  for (const [page, ratio] of Object.entries(r.firstVisitJs.ratios)) list.push(check(`first-visit JS ${page} / floor`, ratio, '<=', 1.3))
  for (const [page, summary] of Object.entries(r.lighthouse ?? {})) {
    if (page !== 'E') list.push(check(`Lighthouse ${page}`, 'score' in summary ? summary.score : null, '>=', 95))
  }
  return list
}

const n = (value: number, digits = 0) => value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits })

/** The table for the README's Performance section (printed at the end of the run). */
export function renderMarkdown(r: BenchResults): string {
  const lines: string[] = []
  const day = r.date.slice(0, 10)
  lines.push(
    `\`${r.command}\` — ${day}, ${r.machine.cores} cores (${r.machine.cpu}), Node ${r.machine.node}, ${r.tool}, ` +
      `${r.method.connections} connections, ${r.method.durationS} s per measurement after ${r.method.warmupS} s warm-up, ` +
      `${r.method.rounds} alternating round(s), ${n(r.listings)} listings.`,
    '',
    '| Target | | req/s | p50 ms | p99 ms | CPU ms/req (server + PostgreSQL) | peak RSS MB |',
    '|---|---|--:|--:|--:|--:|--:|',
  )
  for (const id of ['A', 'B', 'BS', 'C', 'CS', 'P', 'SD', 'D', 'E', 'GB', 'GC', 'GBS', 'GCS', 'FB', 'FC']) {
    const t = r.targets[id]
    if (t)
      lines.push(
        `| ${id} | ${t.label} | ${n(t.requestsPerSecond)} | ${n(t.p50Ms, 1)} | ${n(t.p99Ms, 1)} | ${n(t.cpuMsPerRequest, 2)} + ${n(t.pgCpuMsPerRequest, 2)} | ${t.peakRssMB} |`,
      )
  }
  if (r.openLoop) {
    lines.push(
      '',
      `Open loop (fixed rates, latency from the scheduled send; floor D's closed-loop maximum ${n(r.openLoop.dMaxRequestsPerSecond)} req/s), both at shares of D's maximum — reported, not a budget:`,
      '',
      '| Rate | Target | answered/s | not 2xx | p50 ms | p90 ms | p99 ms | p99(A)/p99(D) |',
      '|---|---|--:|--:|--:|--:|--:|--:|',
    )
    for (const rate of r.openLoop.rates) {
      for (const id of ['A', 'D'] as const) {
        const t = rate[id]
        lines.push(
          `| ${rate.share * 100} % = ${n(rate.rate)} req/s | ${id} | ${n(t.completedPerSecond)} | ${n(t.non2xx)} | ${n(t.p50Ms, 1)} | ${n(t.p90Ms, 1)} | ${n(t.p99Ms, 1)} | ${id === 'A' ? n(rate['p99(A)/p99(D)'], 2) : ''} |`,
        )
      }
    }
    const ownShares = r.openLoop.rates.flatMap((rate) => (rate.ownShare ? [{ share: rate.share, ...rate.ownShare }] : []))
    if (ownShares.length > 0) {
      lines.push(
        '',
        `The budgets (issue 28.1): A at the same share of its own maximum (${n(r.openLoop.aMaxRequestsPerSecond ?? 0)} req/s), against D above at that share of D's:`,
        '',
        "| Rate | Target | answered/s | not 2xx | p50 ms | p90 ms | p99 ms | p99(A)/p99(D at the share of D's) |",
        '|---|---|--:|--:|--:|--:|--:|--:|',
      )
      for (const own of ownShares) {
        const t = own.A
        lines.push(
          `| ${own.share * 100} % of A's = ${n(own.rate)} req/s | A | ${n(t.completedPerSecond)} | ${n(t.non2xx)} | ${n(t.p50Ms, 1)} | ${n(t.p90Ms, 1)} | ${n(t.p99Ms, 1)} | ${n(own['p99(A)/p99(D)'], 2)} |`,
        )
      }
    }
  }
  if (r.throughCache) {
    lines.push(
      '',
      `Anonymous pages through nginx's cache (\`npm run cluster\`'s nginx in front of ${r.throughCache.instances} instance(s), same database and build):`,
      '',
      '| Target | req/s | p50 ms | p99 ms | X-Cache-Status HIT | statuses |',
      '|---|--:|--:|--:|--:|---|',
    )
    for (const id of ['B', 'C'] as const) {
      const t = r.throughCache.targets[id]
      lines.push(
        `| ${id} via nginx | ${n(t.requestsPerSecond)} | ${n(t.p50Ms, 1)} | ${n(t.p99Ms, 1)} | ${n(t.hitRatio * 100, 1)} % | ${Object.entries(
          t.cacheStatuses,
        )
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')} |`,
      )
    }
  }
  if (r.statementsPerRequest) {
    lines.push(
      '',
      `Statements per request (pg_stat_statements): ${Object.entries(r.statementsPerRequest)
        .map(
          ([id, c]) =>
            `${id} ${c.statementsPerRequest} (${Object.entries(c.byKind)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')})`,
        )
        .join('; ')}.`,
    )
  }
  if (r.scale) {
    for (const id of ['A', 'D']) {
      const t = r.scale.targets[id]
      if (t)
        lines.push(
          `| ${id} @ ${n(r.scale.listings)} | ${t.label} | ${n(t.requestsPerSecond)} | ${n(t.p50Ms, 1)} | ${n(t.p99Ms, 1)} | ${t.peakRssMB} |`,
        )
    }
  }
  lines.push('', '| Budget | Measured | Target | |', '|---|--:|--:|---|')
  for (const b of budgets(r)) {
    const value = b.value === null ? '–' : n(b.value, Number.isInteger(b.value) ? 0 : 2)
    lines.push(`| ${b.name} | ${value} | ${b.limit} | ${b.pass === null ? '–' : b.pass ? 'met' : '**missed**'} |`)
  }
  if (r.ratiosByRound.length > 1) {
    const rounds = r.ratiosByRound.map(
      (x, i) =>
        `round ${i + 1}: ${Object.entries(x)
          .map(([k, v]) => `${k} ${v ?? '–'}`)
          .join(', ')}`,
    )
    lines.push('', `Ratios within each round (subject and floor back to back) — ${rounds.join('; ')}.`)
  }
  lines.push('', '| Page | First-visit JS (gzip) | × floor | Lighthouse | LCP | TBT | CLS |', '|---|--:|--:|--:|--:|--:|--:|')
  const lh = (page: string) => {
    const s = r.lighthouse?.[page]
    if (!s) return '– | – | – | –'
    if (!('score' in s)) return 'failed | – | – | –'
    return `${s.score} | ${n(s.lcpMs)} ms | ${n(s.tbtMs)} ms | ${s.cls}`
  }
  for (const [page, js] of Object.entries(r.firstVisitJs.pages)) {
    lines.push(`| \`${page}\` | ${n(js.gzipKB, 1)} KB | ${n(r.firstVisitJs.ratios[page] ?? 0, 2)} | ${lh(page)} |`)
  }
  lines.push(`| floor E | ${n(r.firstVisitJs.floorE.gzipKB, 1)} KB | 1.00 | ${lh('E')} |`)
  const runs = Object.values(r.lighthouse ?? {}).find((s) => 'runs' in s)
  if (runs && 'runs' in runs)
    lines.push('', `Lighthouse: mobile preset (simulated throttling), median of ${runs.runs.length} runs, Chromium headless.`)
  return lines.join('\n')
}
