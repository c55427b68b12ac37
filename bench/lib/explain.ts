import pg from 'pg'
import type { FloorPlan } from './app-queries.ts'

export interface QueryPlanSummary {
  path: string
  executionMs: number
  planningMs: number
  /** Every scan node over listings, e.g. "Index Scan using listings_newest_idx", "Bitmap Heap Scan". */
  listingScans: string[]
  seqScanOnListings: boolean
  sharedBuffersRead: number
}

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Shared Read Blocks'?: number
  Plans?: PlanNode[]
}

function walk(node: PlanNode, visit: (n: PlanNode) => void) {
  visit(node)
  for (const child of node.Plans ?? []) walk(child, visit)
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each statement the app runs for the benchmark
 * queries, as an unnamed statement with the real parameters (the plan the app
 * gets), after one unmeasured run to warm the cache.
 */
export async function explainPlans(databaseUrl: string, plans: FloorPlan[]): Promise<QueryPlanSummary[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const out: QueryPlanSummary[] = []
    for (const plan of plans) {
      await client.query(plan.statement.sql, plan.statement.parameters)
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${plan.statement.sql}`, plan.statement.parameters)
      const result = (rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number; 'Planning Time': number }> })[
        'QUERY PLAN'
      ][0]!
      const scans: string[] = []
      let read = 0
      walk(result.Plan, (n) => {
        read = Math.max(read, n['Shared Read Blocks'] ?? 0)
        if (n['Relation Name'] === 'listings' || (n['Index Name'] ?? '').startsWith('listings_')) {
          scans.push(n['Index Name'] ? `${n['Node Type']} using ${n['Index Name']}` : n['Node Type'])
        }
      })
      out.push({
        path: plan.path,
        executionMs: Math.round(result['Execution Time'] * 100) / 100,
        planningMs: Math.round(result['Planning Time'] * 100) / 100,
        listingScans: scans,
        seqScanOnListings: scans.some((s) => s.startsWith('Seq Scan')),
        sharedBuffersRead: read,
      })
    }
    return out
  } finally {
    await client.end()
  }
}
