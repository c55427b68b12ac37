import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/*
 * "No SQL built from input" as a test (issue 9). Values reach SQL only as bound
 * parameters: Kysely's builder, and `sql` template tags whose ${…} become $n.
 * The ways around that — sql.raw/lit/ref/id/table, CompiledQuery.raw, a pg
 * client's query() — take SQL text, so each use is listed here with what it
 * gets; a new one fails this test until someone has checked it and added it.
 * String concatenation into a query() call fails outright.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const RAW_SQL = /\bsql\.(raw|lit|ref|id|table)\(|CompiledQuery\.raw\(|\b(client|pool|db)\.query\(/

/** Reviewed uses: file → the exact source lines, with why they are safe. */
const REVIEWED: Record<string, Record<string, string>> = {
  'app/server/domain/search.server.ts': {
    'sql<string>`to_char(${sql.ref(column)} AT TIME ZONE \'UTC\', \'YYYY-MM-DD"T"HH24:MI:SS.US"Z"\')`':
      'a keyset timestamp column of the sort (createdAt or lastUpdatedAt, constants)',
    "const operator = direction === 'desc' ? sql.raw('<') : sql.raw('>')": 'one of two constant operators',
    "rowsAfter([...columns.map((column) => sql.ref(`l.${column}`)), sql.ref('l.id')], scanDirection, [":
      'columns from the fixed SORT_KEYS map; cursor values are bound parameters (castKey)',
    "sql<number>`ts_rank_cd(${sql.ref('l.searchVector')}, ${tsquery(search)})`.as('rank'),": 'a constant column; the search is bound',
    "rowsAfter([sql.ref('l.rank'), sql.ref('l.createdAt'), sql.ref('l.id')], scanDirection, [": 'constant columns',
    "rowsAfter([sql.ref('l.createdAt'), sql.ref('l.id')], scanDirection, [": 'constant columns',
    "rows = rows.where(sql<SqlBool>`(${sql.ref('l.createdAt')}, ${sql.ref('l.id')}) < (${oldestInWindow})`)": 'constant columns',
  },
  'db/embedded.ts': {
    "const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])": 'bound parameter',
    "if (!rowCount) await client.query(`CREATE DATABASE \"${database.replaceAll('\"', '')}\"`)":
      'the database name from DATABASE_URL configuration (not a request), quoted, local embedded server only',
  },
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
}

describe('SQL text', () => {
  const uses = ['app', 'db', 'migrations'].flatMap(sourceFiles).flatMap((file) =>
    readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => RAW_SQL.test(line))
      .map((line) => ({ file, line })),
  )

  it('is written in code wherever it bypasses bound parameters (each such line reviewed)', () => {
    const unreviewed = uses.filter(({ file, line }) => !REVIEWED[file]?.[line])
    expect(unreviewed).toEqual([])
    expect(uses.length).toBeGreaterThan(0)
  })

  it('lists no reviewed line that is gone', () => {
    const present = new Set(uses.map(({ file, line }) => `${file}\n${line}`))
    const stale = Object.entries(REVIEWED).flatMap(([file, lines]) =>
      Object.keys(lines)
        .filter((line) => !present.has(`${file}\n${line}`))
        .map((line) => ({ file, line })),
    )
    expect(stale).toEqual([])
  })

  it('is never glued together from strings in a query() call', () => {
    const glued = uses.filter(({ line }) => /\.query\(\s*(['"`][^'"`]*['"`]\s*\+|[A-Za-z_$][\w$.]*\s*\+)/.test(line))
    expect(glued).toEqual([])
  })
})
