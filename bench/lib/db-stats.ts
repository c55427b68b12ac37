import { appendFileSync, readFileSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'

/**
 * Database cost per request, for the capacity model (docs/capacity.md):
 * statements counted by pg_stat_statements (loaded into the run's copy of the
 * cluster only) and the app's connections sampled from pg_stat_activity.
 */

/** Loads pg_stat_statements at the cluster's next start (the run's copy, never the cached original). */
export function enableStatementStats(dataDir: string) {
  appendFileSync(
    path.join(dataDir, 'postgresql.auto.conf'),
    "\n# bench/lib/db-stats.ts: statements per request\nshared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track_utility = on\n",
  )
}

/** The postmaster's pid (its process tree is PostgreSQL's CPU). */
export function postmasterPid(dataDir: string): number {
  return Number.parseInt(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0] ?? '', 10)
}

export interface StatementCount {
  requests: number
  statementsPerRequest: number
  /** PostgreSQL's execution time of those statements per request (total_exec_time): the least a connection is held. */
  execMsPerRequest: number
  /** Per request, by the statement's first word (SELECT, INSERT, BEGIN…). */
  byKind: Record<string, number>
  /** The statements, most frequent first: calls per request and the text's start. */
  statements: Array<{ perRequest: number; query: string }>
}

// The job worker's polling and our own statistics queries are not the request's.
const NOT_THE_REQUEST = /pg_stat_statements|pg_stat_activity|graphile_worker|^\s*(LISTEN|UNLISTEN)\b/i

export async function withStatementStats<T>(databaseUrl: string, fn: (stats: StatementStats) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'forkmarket-bench-stats' })
  await client.connect()
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
    return await fn(new StatementStats(client))
  } finally {
    await client.end()
  }
}

export class StatementStats {
  constructor(private client: pg.Client) {}

  async reset() {
    await this.client.query('SELECT pg_stat_statements_reset()')
  }

  /** Statements executed since the last reset, per request (`requests` requests were sent meanwhile). */
  async perRequest(requests: number): Promise<StatementCount> {
    const { rows } = await this.client.query<{ query: string; calls: string; ms: number }>(
      'SELECT query, calls, total_exec_time AS ms FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())',
    )
    const mine = rows
      .filter((r) => !NOT_THE_REQUEST.test(r.query))
      .map((r) => ({ query: r.query, calls: Number(r.calls), ms: Number(r.ms) }))
    const byKind: Record<string, number> = {}
    let total = 0
    let ms = 0
    for (const r of mine) {
      const kind = (/^\s*(?:WITH\b[\s\S]*?\)\s*)?([A-Za-z]+)/.exec(r.query)?.[1] ?? '?').toUpperCase()
      byKind[kind] = (byKind[kind] ?? 0) + r.calls / requests
      total += r.calls
      ms += r.ms
    }
    const round = (x: number) => Math.round(x * 100) / 100
    return {
      requests,
      statementsPerRequest: round(total / requests),
      execMsPerRequest: Math.round((ms / requests) * 1000) / 1000,
      byKind: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, round(v)])),
      statements: mine
        .sort((a, b) => b.calls - a.calls)
        .slice(0, 12)
        .map((r) => ({ perRequest: round(r.calls / requests), query: r.query.replace(/\s+/g, ' ').slice(0, 140) })),
    }
  }
}

export interface ConnectionSample {
  /** The most connections the server's pool held open at once (application_name). */
  peakOpen: number
  /** The most of them running a statement at one sample, and the mean over the samples. */
  peakActive: number
  meanActive: number
  samples: number
}

/** Samples pg_stat_activity every intervalMs for connections named applicationName, until stopped. */
export async function sampleConnections(databaseUrl: string, applicationName: string, intervalMs = 200) {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'forkmarket-bench-stats' })
  await client.connect()
  const samples: Array<{ open: number; active: number }> = []
  let stopped = false
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await client.query<{ open: number; active: number }>(
        `SELECT count(*)::int AS open, count(*) FILTER (WHERE state = 'active')::int AS active
           FROM pg_stat_activity WHERE application_name = $1`,
        [applicationName],
      )
      samples.push(rows[0]!)
      await new Promise((r) => setTimeout(r, intervalMs))
    }
  })()
  return {
    async stop(): Promise<ConnectionSample> {
      stopped = true
      await loop.catch(() => {})
      await client.end()
      const active = samples.map((s) => s.active)
      return {
        peakOpen: Math.max(0, ...samples.map((s) => s.open)),
        peakActive: Math.max(0, ...active),
        meanActive: active.length ? Math.round((active.reduce((a, b) => a + b, 0) / active.length) * 100) / 100 : 0,
        samples: samples.length,
      }
    },
  }
}
