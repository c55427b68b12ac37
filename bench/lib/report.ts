import type { QueryPlanSummary } from './explain.ts'
import type { LighthouseSummary } from './lighthouse.ts'
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
  /** Largest resident memory of the server's process tree sampled while this target was measured. */
  peakRssMB: number
  /** The kernel's high-water mark (VmHWM) of the server process when the target's rounds ended. */
  serverPeakRssMB: number
  rounds: Array<LoadResult & { peakRssMB: number }>
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
  'p99(A)/p99(D)': number
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
  'p99(A)/p99(D)',
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
  const list = [
    check('A/D', r['A/D'], '>=', 0.6),
    check('p99(A)/p99(D)', r['p99(A)/p99(D)'], '<=', 1.5),
    check('B/E', r['B/E'], '>=', 0.6),
    check('C/E', r['C/E'], '>=', 0.7),
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
    '| Target | | req/s | p50 ms | p99 ms | peak RSS MB |',
    '|---|---|--:|--:|--:|--:|',
  )
  for (const id of ['A', 'B', 'C', 'D', 'E']) {
    const t = r.targets[id]
    if (t) lines.push(`| ${id} | ${t.label} | ${n(t.requestsPerSecond)} | ${n(t.p50Ms, 1)} | ${n(t.p99Ms, 1)} | ${t.peakRssMB} |`)
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
