import { existsSync } from 'node:fs'
import path from 'node:path'

export interface CompiledStatement {
  sql: string
  parameters: unknown[]
}

/**
 * What GET /api/listings?<query> runs for a first page, compiled by the app's
 * own query builder (`buildSearchQuery` of app/server/domain/search.server.ts) from
 * the app's own parser (`parseFilters` of app/lib/filters.ts), exactly as
 * `searchListings` calls it. Floor D replays this statement. (When a search
 * finds nothing the app runs a typo correction too; the harness requires every
 * benchmark query to find listings, so that path is never taken.)
 */
export interface FloorPlan {
  path: string
  order: string
  limit: number
  statement: CompiledStatement
}

export async function compileFloorPlans(root: string, databaseUrl: string, queries: string[]): Promise<FloorPlan[]> {
  for (const file of ['app/lib/filters.ts', 'app/server/domain/search.server.ts']) {
    if (!existsSync(path.join(root, file))) throw new Error(`${file} (the marketplace issue) does not exist yet.`)
  }
  // db.server.ts creates the app's pool on import from DATABASE_URL; compiling never connects.
  process.env.DATABASE_URL ??= databaseUrl
  const filters = await import('../../app/lib/filters.ts')
  const search = await import('../../app/server/domain/search.server.ts')
  const { db } = await import('../../app/server/infra/db.server.ts')
  try {
    return queries.map((query) => {
      const parsed = filters.parseFilters(new URLSearchParams(query))
      if (!parsed.ok) throw new Error(`benchmark query "${query}" is invalid: ${parsed.error.message}`)
      const limit = search.PAGE_SIZE
      const compiled = search.buildSearchQuery(parsed.filters, { cursor: null, limit }).compile()
      return {
        path: `/api/listings?${query}`,
        order: filters.resultOrder(parsed.filters),
        limit,
        statement: { sql: compiled.sql, parameters: [...compiled.parameters] },
      }
    })
  } finally {
    await db.destroy()
  }
}
