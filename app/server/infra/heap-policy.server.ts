import { setFlagsFromString } from 'node:v8'
import { heapGrowingPercent } from './env.server.ts'

/**
 * How far V8 lets the old generation grow past what the last full collection kept before it
 * collects again (issue 28.1, docs/decisions/037). Under load each request allocates ~0.7 MB
 * (React Router's route matching, pg's rows, the answer's JSON) and the share of it still in
 * flight at a young-generation collection is promoted; with V8's own factor (up to 4× the live
 * size when collections are cheap) the app's RSS climbed from ~370 MB to 530–630 MB before a
 * full collection, with ~100 MB live. At 50 % it peaks at ~340 MB at the same throughput. A
 * factor, not a cap (`--max-old-space-size`): a heap that really needs more still gets it.
 *
 * Imported first by server.ts, before the modules whose loading fills the heap. HEAP_GROWING_PERCENT
 * sets another percentage; 0 leaves V8's own heuristic (read by the configuration's own rule: the
 * whole configuration is loaded later than this must run).
 */
const parsed = heapGrowingPercent()
if (!parsed.success) {
  console.error(`HEAP_GROWING_PERCENT ${parsed.error.issues[0]?.message ?? 'is not valid'}`)
  process.exit(1)
}
if (parsed.data > 0) setFlagsFromString(`--heap-growing-percent=${parsed.data}`)
