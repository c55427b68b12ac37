import type { CompiledQuery, Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import { decodeCursor, parseFilters, type PageCursor } from '../../app/lib/filters.ts'
import { buildCorrectionQuery, buildSearchQuery, searchListings, withCorrectionThreshold } from '../../app/server/domain/search.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import type { DB } from '../../db/schema.ts'
import { seedBulkListings } from '../../db/seed/bulk.ts'

const LISTINGS = 100_000

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Actual Rows'?: number
  'Rows Removed by Filter'?: number
  Filter?: string
  Plans?: PlanNode[]
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)]
}

async function explain(executor: Kysely<DB>, compiled: CompiledQuery) {
  const result = await executor.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>({
    ...compiled,
    sql: `EXPLAIN (ANALYZE, FORMAT JSON) ${compiled.sql}`,
  })
  const [plan] = result.rows[0]!['QUERY PLAN']
  return { nodes: nodesOf(plan.Plan), milliseconds: plan['Execution Time'] }
}

function describePlan(nodes: PlanNode[]) {
  return nodes
    .filter((n) => n['Relation Name'] === 'listings' || n['Index Name']?.startsWith('listings'))
    .map((n) => `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}`)
    .join(', ')
}

// Every filter and sort alone, searches common and rare, and combinations.
const QUERIES = [
  '',
  'sortBy=oldest',
  'sortBy=price-low',
  'sortBy=price-high',
  'type=template',
  'type=full_site',
  'licence=commercial',
  'licence=personal',
  'minPrice=25',
  'maxPrice=15',
  'minPrice=900',
  'minPrice=10&maxPrice=50',
  'languages=TypeScript',
  'languages=Go',
  'languages=Elixir,Scala',
  'frameworks=Django',
  'frameworks=Phoenix',
  'dependencies=Stripe',
  'dependencies=Twilio,Turso',
  'hasSetupCall=true',
  'hasEmailSupport=true',
  'hasBespokeDev=true',
  'search=react',
  'search=dashboard',
  'search=stripe',
  'search=booking%20dashboard',
  'search=quokka',
  // An unknown word (the first step of a typo): the GIN index says "nothing" at once.
  'search=recat',
  'search=%22real%20estate%22',
  'search=react&sortBy=price-low',
  'search=dashboard&sortBy=oldest',
  'search=quokka&sortBy=price-high',
  'languages=Python&minPrice=20&maxPrice=100&sortBy=price-low',
  'type=full_site&licence=commercial&frameworks=Next.js&hasSetupCall=true',
  'type=template&licence=personal&frameworks=Phoenix&hasBespokeDev=true',
  'languages=Scala&hasSetupCall=true&hasEmailSupport=true&hasBespokeDev=true&sortBy=price-high',
  'search=dashboard&languages=TypeScript&maxPrice=100',
  'search=api&type=template&dependencies=PostgreSQL&sortBy=price-high',
  'search=quokka&languages=Rust&hasEmailSupport=true',
  // Issue 28.5: the text with a facet (at 10k listings the languages index alone read ~1,000 pages).
  'search=authentication&languages=Python',
  // Issue 18: top-rated and the minimum rating.
  'sortBy=top-rated',
  'minRating=4',
  'minRating=4&sortBy=top-rated',
  'minRating=3&sortBy=price-low',
  'search=dashboard&sortBy=top-rated',
  'languages=Go&minRating=4&sortBy=top-rated',
  // Issue 30: recently updated (the latest version, else creation; listings_recently_updated_idx).
  'sortBy=recently-updated',
  'search=dashboard&sortBy=recently-updated',
  'languages=Go&minPrice=20&sortBy=recently-updated',
]

describe(`query plans at ${LISTINGS.toLocaleString('en')} listings`, () => {
  it('never scans the listings table sequentially, on any page', async () => {
    const seeded = await seedBulkListings(db, { listings: LISTINGS, seed: 7 })
    console.log(`seeded ${seeded.listings} listings in ${(seeded.milliseconds / 1000).toFixed(1)} s`)

    const failures: string[] = []
    const report: string[] = []
    const check = async (label: string, compiled: CompiledQuery, executor: Kysely<DB> = db) => {
      const { nodes, milliseconds } = await explain(executor, compiled)
      const seqScan = nodes.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'listings')
      if (seqScan) failures.push(`${label}: ${describePlan(nodes)}`)
      report.push(`${milliseconds.toFixed(1).padStart(7)} ms  ${label}  [${describePlan(nodes)}]`)
      return nodes
    }

    for (const query of QUERIES) {
      const parsed = parseFilters(new URLSearchParams(query))
      if (!parsed.ok) throw new Error(`${query}: ${parsed.error.message}`)
      const { filters } = parsed
      const nodes = await check(query || '(no filter)', buildSearchQuery(filters).compile())
      if (query.startsWith('search=quokka') || query === 'search=recat') {
        // A rare term must be looked up in the GIN index, not found by walking a sort index.
        expect(
          nodes.some((n) => n['Index Name'] === 'listings_search_facets_idx'),
          query,
        ).toBe(true)
      }
      // Issue 28.5: where the text and a facet are looked up in an index, they are looked up together (one
      // multicolumn GIN index), never one of them after the other by reading the table's rows.
      const rechecked = nodes.filter(
        (n) =>
          n['Node Type'] === 'Bitmap Heap Scan' &&
          nodesOf(n).some((child) => child['Index Name'] === 'listings_search_facets_idx') &&
          /@@|&&/.test(n.Filter ?? ''),
      )
      expect(
        rechecked.map((n) => `${n['Node Type']}: ${n.Filter}`),
        query,
      ).toEqual([])

      // Later pages: forward and back, and for a ranked search into its second segment.
      const first = await searchListings(filters, { limit: 100 })
      const cursors: [string, string | null][] = [['next page', first.pagination.nextCursor]]
      if (first.pagination.nextCursor) {
        const second = await searchListings(filters, { limit: 100, cursor: decode(first.pagination.nextCursor) })
        cursors.push(['page 3', second.pagination.nextCursor], ['back to page 1', second.pagination.previousCursor])
      }
      for (const [label, cursor] of cursors) {
        if (!cursor) continue
        await check(`${query || '(no filter)'} · ${label}`, buildSearchQuery(filters, { cursor: decode(cursor) }).compile())
      }
    }

    // The typo path reads the vocabulary only, never the listings.
    await withCorrectionThreshold(db, async (trx) => {
      const nodes = await check('typo correction of "recat dashbord"', buildCorrectionQuery(['recat', 'dashbord']).compile(trx), trx)
      expect(nodes.filter((n) => n['Relation Name'] === 'listings')).toEqual([])
    })

    console.log(report.join('\n'))
    expect(failures).toEqual([])
  }, 900_000)
})

function decode(cursor: string): PageCursor {
  const decoded = decodeCursor(cursor)
  if (!decoded) throw new Error(`undecodable cursor ${cursor}`)
  return decoded
}
