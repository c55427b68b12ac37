/**
 * Floor D of the benchmark: the least a server can do to answer
 * GET /api/listings — a bare node:http server and a `pg` pool of the app's
 * size, replaying the statements the app's own query builder compiled for
 * each benchmark query (bench/lib/app-queries.ts writes them to
 * FLOOR_PLANS_FILE) and answering the same JSON as the app: rows with
 * camelCased keys (what Kysely's CamelCasePlugin does), the seller nested,
 * and the same pagination cursors (the app's encodeCursor). No framework, no
 * Kysely, no validation, no middleware.
 */
import { readFileSync } from 'node:fs'
import http from 'node:http'
import pg from 'pg'
// The app's cursor encoder (a pure function of the shared filters module), so the floor's
// pagination links are byte-for-byte the app's.
import { encodeCursor, type ResultOrder } from '../app/lib/filters.ts'
import type { FloorPlan } from './lib/app-queries.ts'

// The app's pool parses int8 the same way (db/connection.ts).
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10))

const plans = new Map<string, FloorPlan>(
  (JSON.parse(readFileSync(process.env.FLOOR_PLANS_FILE!, 'utf8')) as FloorPlan[]).map((p) => [p.path, p]),
)
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_MAX ?? 10),
  application_name: 'forkmarket-floor-d',
})
pool.on('error', () => {})

type Row = Record<string, unknown>

function camelCase(row: Row): Row {
  const out: Row = {}
  for (const key in row) out[key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())] = row[key]
  return out
}

function cursor(plan: FloorPlan, row: Row): string {
  const key =
    plan.order === 'relevance'
      ? [Number(row.segment), Number(row.rank), row.createdAtKey, row.id]
      : plan.order === 'price-low' || plan.order === 'price-high'
        ? [row.priceCents, row.id]
        : plan.order === 'recently-updated'
          ? [row.lastUpdatedAtKey, row.id]
          : [row.createdAtKey, row.id]
  return encodeCursor({ direction: 'next', order: plan.order as ResultOrder, key: key as (string | number)[], correctedSearch: null })
}

async function answer(plan: FloorPlan): Promise<string> {
  let rows = ((await pool.query(plan.statement.sql, plan.statement.parameters)).rows as Row[]).map(camelCase)
  const hasMore = rows.length > plan.limit
  if (hasMore) rows = rows.slice(0, plan.limit)
  const last = rows[rows.length - 1]
  return JSON.stringify({
    listings: rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      shortDescription: r.shortDescription,
      type: r.type,
      licence: r.licence,
      priceCents: r.priceCents,
      currency: r.currency,
      languages: r.languages,
      frameworks: r.frameworks,
      dependencies: r.dependencies,
      tags: r.tags,
      thumbnailUrl: r.thumbnailUrl,
      setupCallAvailable: r.setupCallAvailable,
      setupCallDetails: r.setupCallDetails,
      emailSupportAvailable: r.emailSupportAvailable,
      emailSupportDuration: r.emailSupportDuration,
      bespokeDevelopmentAvailable: r.bespokeDevelopmentAvailable,
      bespokeDevelopmentRateCents: r.bespokeDevelopmentRateCents,
      deliveryTimeframe: r.deliveryTimeframe,
      additionalNotes: r.additionalNotes,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      // Issue 30: the newest version's date, else the listing's creation.
      lastUpdatedAt: r.lastUpdatedAt,
      sellerId: r.sellerId,
      seller: { username: r.sellerUsername, displayName: r.sellerDisplayName, avatarUrl: r.sellerAvatarUrl },
      // Issue 18: the stored rating, as the app shapes it.
      rating: { average: (r.ratingCount as number) > 0 ? (r.ratingAverageTenths as number) / 10 : null, count: r.ratingCount },
      // The spec entity's nested objects (issue 14.17), as the app adds them.
      techStack: { languages: r.languages, frameworks: r.frameworks, dependencies: r.dependencies },
      support: {
        setupCallAvailable: r.setupCallAvailable,
        setupCallDetails: r.setupCallDetails,
        emailSupportAvailable: r.emailSupportAvailable,
        emailSupportDuration: r.emailSupportDuration,
        deliveryTimeframe: r.deliveryTimeframe,
        bespokeDevelopmentAvailable: r.bespokeDevelopmentAvailable,
        bespokeDevelopmentRate: r.bespokeDevelopmentRateCents === null ? null : (r.bespokeDevelopmentRateCents as number) / 100,
        additionalNotes: r.additionalNotes,
      },
    })),
    pagination: {
      limit: plan.limit,
      hasNextPage: hasMore && last !== undefined,
      hasPreviousPage: false,
      nextCursor: hasMore && last ? cursor(plan, last) : null,
      previousCursor: null,
    },
    correctedSearch: null,
  })
}

const server = http.createServer((req, res) => {
  const plan = plans.get(req.url ?? '')
  if (!plan) {
    res.writeHead(req.url === '/healthz' ? 200 : 404, { 'Content-Type': 'application/json' })
    res.end(req.url === '/healthz' ? '{"ok":true}' : '{"error":"Not a benchmark query"}')
    return
  }
  answer(plan).then(
    (body) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) })
      res.end(body)
    },
    (error: unknown) => {
      res.writeHead(500, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }))
    },
  )
})

const port = Number(process.env.PORT ?? 3901)
server.listen(port, process.env.HOST ?? '127.0.0.1', () => console.log(`[floor-d] listening on port ${port} with ${plans.size} queries`))
const stop = () => {
  server.close(() => void pool.end().then(() => process.exit(0)))
  server.closeAllConnections()
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
