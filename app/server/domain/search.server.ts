/**
 * Marketplace search (design.md §6): one Kysely query built from a validated
 * filter state, served by the partial indexes of migrations/0001 at 100,000+
 * listings. Used by /marketplace and GET /api/listings; the benchmark's bare
 * floor compiles its SQL from `buildSearchQuery` too.
 *
 * Pagination is keyset (seek) pagination: a page starts strictly after the sort
 * key of the previous page's last row, with the id as the final tie-break, so
 * walking the pages never repeats or skips a listing, and a deep page costs
 * about what the first one does.
 *
 * Relevance (a search term with the default sort) comes in two segments:
 *  1. the RELEVANCE_WINDOW newest matches, best match first (ts_rank_cd on the
 *     weighted search_vector: title > short description > tags > long
 *     description), newest first among equals;
 *  2. every older match, newest first.
 * Ranking every match would cost time in proportion to the number of matches
 * ('react' matches a third of the marketplace: a sequential scan, 300 ms at
 * 100,000 listings). The window costs the same whatever the table size: the
 * planner walks the created_at index for a common term and uses the GIN index
 * for a rare one, and both segments are plain keyset scans.
 *
 * Rules kept on purpose:
 * - Every WHERE repeats `visible AND archived_at IS NULL` literally, the
 *   predicate of the partial indexes, so the planner can use them.
 * - Only listings that can be bought are found: their seller can take
 *   payments (issue 26.13); the seller sees the others on their dashboard.
 * - Queries run as unnamed statements (Kysely's default). A named prepared
 *   statement switches to a generic plan after five runs, blind to how rare a
 *   search term is, and goes 10× slower (issue 10).
 */
import { sql, type CompiledQuery, type Expression, type Kysely, type SqlBool } from 'kysely'
import { encodeCursor, LICENCES_FOR_FILTER, resultOrder, type MarketplaceFilters, type PageCursor, type ResultOrder } from '~/lib/filters'
import { PAYABLE_BANK_STATUSES } from '~/lib/seller-eligibility'
import type { DB } from '../../../db/schema.ts'
import { db as appDb } from '../infra/db.server.ts'

export const PAGE_SIZE = 24
export const MAX_PAGE_SIZE = 100
/** How many of the newest matches are ranked by relevance (five pages). */
export const RELEVANCE_WINDOW = 120
/** pg_trgm similarity from which a title word is a candidate correction ('recat' vs 'react' is 0.2). */
export const CORRECTION_SIMILARITY = 0.2

export interface SearchPageRequest {
  cursor?: PageCursor | null
  limit?: number
  /** The search term to run instead of filters.search (a corrected one). */
  search?: string | null
}

export interface ListingSummary {
  id: string
  slug: string
  title: string
  shortDescription: string
  type: 'template' | 'full_site'
  licence: 'personal' | 'commercial' | 'unlimited'
  priceCents: number
  currency: string
  languages: string[]
  frameworks: string[]
  dependencies: string[]
  tags: string[]
  thumbnailUrl: string | null
  setupCallAvailable: boolean
  setupCallDetails: string | null
  emailSupportAvailable: boolean
  emailSupportDuration: string | null
  bespokeDevelopmentAvailable: boolean
  bespokeDevelopmentRateCents: number | null
  deliveryTimeframe: string | null
  additionalNotes: string | null
  createdAt: Date
  updatedAt: Date
  /** The latest version's publication, else createdAt ("Updated 3 days ago"; issue 30). */
  lastUpdatedAt: Date
  sellerId: string
  seller: { username: string; displayName: string; avatarUrl: string | null }
  /** Issue 18: the shown average (a tenth of a star; null without reviews) and how many reviews. */
  rating: { average: number | null; count: number }
}

export interface Pagination {
  limit: number
  hasNextPage: boolean
  hasPreviousPage: boolean
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null
  /** Pass as `cursor` for the previous page; null on the first page. */
  previousCursor: string | null
}

export interface SearchResult {
  listings: ListingSummary[]
  pagination: Pagination
  /** Set when the search term found nothing and a corrected one was used ('recat' → 'react'). */
  correctedSearch: string | null
}

type Direction = 'asc' | 'desc'
const flip = (direction: Direction): Direction => (direction === 'asc' ? 'desc' : 'asc')

const LISTING_COLUMNS = [
  'l.id',
  'l.sellerId',
  'l.slug',
  'l.title',
  'l.shortDescription',
  'l.type',
  'l.licence',
  'l.priceCents',
  'l.currency',
  'l.languages',
  'l.frameworks',
  'l.dependencies',
  'l.tags',
  'l.thumbnailUrl',
  'l.setupCallAvailable',
  'l.setupCallDetails',
  'l.emailSupportAvailable',
  'l.emailSupportDuration',
  'l.bespokeDevelopmentAvailable',
  'l.bespokeDevelopmentRateCents',
  'l.deliveryTimeframe',
  'l.additionalNotes',
  'l.createdAt',
  'l.updatedAt',
  'l.lastUpdatedAt',
  'l.ratingCount',
  'l.ratingAverageTenths',
  'l.ratingScore',
] as const

// Microseconds, which a JS Date would lose: a cursor must compare exactly.
const timestampKey = (column: 'l.createdAt' | 'l.lastUpdatedAt') =>
  sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
const createdAtKey = timestampKey('l.createdAt')
const lastUpdatedAtKey = timestampKey('l.lastUpdatedAt')

function tsquery(search: string) {
  return sql`websearch_to_tsquery('english', ${search})`
}

/** The WHERE of every query: visibility, the filters and the search term. */
function filterConditions(filters: MarketplaceFilters, search: string | null): Expression<SqlBool>[] {
  const ref = sql.ref
  // Exactly the partial indexes' predicate (migrations/0001).
  const conditions: Expression<SqlBool>[] = [sql<SqlBool>`${ref('l.visible')} AND ${ref('l.archivedAt')} IS NULL`]
  // Issue 26.13: only what can be bought — the seller can take payments (sellerCanTakePayments). One
  // primary-key probe of bank_details per candidate row; the listings indexes still drive the scan.
  conditions.push(
    sql<SqlBool>`EXISTS (SELECT 1 FROM bank_details b WHERE b.user_id = ${ref('l.sellerId')} AND b.status IN (${sql.join([...PAYABLE_BANK_STATUSES])}))`,
  )
  if (filters.type !== 'all') conditions.push(sql<SqlBool>`${ref('l.type')} = ${filters.type}`)
  if (filters.licence !== 'all') {
    conditions.push(sql<SqlBool>`${ref('l.licence')} IN (${sql.join(LICENCES_FOR_FILTER[filters.licence])})`)
  }
  if (filters.minPriceCents !== null) conditions.push(sql<SqlBool>`${ref('l.priceCents')} >= ${filters.minPriceCents}`)
  if (filters.maxPriceCents !== null) conditions.push(sql<SqlBool>`${ref('l.priceCents')} <= ${filters.maxPriceCents}`)
  // "Has any of" within a field (&& on the GIN indexes); fields combine with AND.
  if (filters.languages.length) conditions.push(sql<SqlBool>`${ref('l.languages')} && ${filters.languages}::text[]`)
  if (filters.frameworks.length) conditions.push(sql<SqlBool>`${ref('l.frameworks')} && ${filters.frameworks}::text[]`)
  if (filters.dependencies.length) conditions.push(sql<SqlBool>`${ref('l.dependencies')} && ${filters.dependencies}::text[]`)
  if (filters.hasSetupCall) conditions.push(sql<SqlBool>`${ref('l.setupCallAvailable')}`)
  if (filters.hasEmailSupport) conditions.push(sql<SqlBool>`${ref('l.emailSupportAvailable')}`)
  if (filters.hasBespokeDev) conditions.push(sql<SqlBool>`${ref('l.bespokeDevelopmentAvailable')}`)
  // The shown average (app/lib/ratings.ts), 0 without reviews: unreviewed listings never pass.
  if (filters.minRating !== null) conditions.push(sql<SqlBool>`${ref('l.ratingAverageTenths')} >= ${filters.minRating * 10}`)
  if (search !== null) conditions.push(sql<SqlBool>`${ref('l.searchVector')} @@ ${tsquery(search)}`)
  return conditions
}

/** `(a, b, …) < (x, y, …)` (or >): rows strictly after the cursor row in an index order. */
function rowsAfter(columns: Expression<unknown>[], direction: Direction, values: Expression<unknown>[]) {
  const operator = direction === 'desc' ? sql.raw('<') : sql.raw('>')
  return sql<SqlBool>`(${sql.join(columns)}) ${operator} (${sql.join(values)})`
}

type SortColumn = 'createdAt' | 'priceCents' | 'ratingScore' | 'lastUpdatedAt'
/** Each sort's key columns before the id (the final tie-break), all in one direction: one index scan. */
const SORT_KEYS: Record<Exclude<ResultOrder, 'relevance'>, { columns: SortColumn[]; direction: Direction }> = {
  newest: { columns: ['createdAt'], direction: 'desc' },
  oldest: { columns: ['createdAt'], direction: 'asc' },
  'price-low': { columns: ['priceCents'], direction: 'asc' },
  'price-high': { columns: ['priceCents'], direction: 'desc' },
  // Bayesian score (0 without reviews), newest first among equals (listings_top_rated_idx).
  'top-rated': { columns: ['ratingScore', 'createdAt'], direction: 'desc' },
  // The latest version's date, else the listing's creation (issue 30; listings_recently_updated_idx).
  'recently-updated': { columns: ['lastUpdatedAt'], direction: 'desc' },
}

function castKey(column: SortColumn, value: string | number | undefined) {
  return column === 'createdAt' || column === 'lastUpdatedAt' ? sql`${value}::timestamptz` : sql`${value}::integer`
}

/**
 * The query for one page of results: up to `limit + 1` rows (the extra one
 * tells whether another page follows), in display order, each with its
 * seller. `.compile()` gives the SQL and parameters; `.execute()` runs it.
 */
export function buildSearchQuery(filters: MarketplaceFilters, page: SearchPageRequest = {}, executor: Kysely<DB> = appDb) {
  const limit = clampLimit(page.limit)
  const cursor = page.cursor ?? null
  const search = page.search !== undefined ? page.search : (cursor?.correctedSearch ?? filters.search)
  const order = resultOrder(filters)
  return order === 'relevance' && search !== null
    ? relevanceQuery(executor, filters, search, cursor, limit)
    : sortedQuery(executor, filters, order === 'relevance' ? 'newest' : order, search, cursor, limit)
}

function sortedQuery(
  executor: Kysely<DB>,
  filters: MarketplaceFilters,
  order: Exclude<ResultOrder, 'relevance'>,
  search: string | null,
  cursor: PageCursor | null,
  limit: number,
) {
  const { columns, direction } = SORT_KEYS[order]
  const scanDirection = cursor?.direction === 'prev' ? flip(direction) : direction
  let page = executor
    .selectFrom('listings as l')
    .select([
      ...LISTING_COLUMNS,
      createdAtKey.as('createdAtKey'),
      lastUpdatedAtKey.as('lastUpdatedAtKey'),
      sql<number>`0::real`.as('rank'),
      sql<number>`1`.as('segment'),
    ])
    .where((eb) => eb.and(filterConditions(filters, search)))
  if (cursor) {
    page = page.where(
      rowsAfter([...columns.map((column) => sql.ref(`l.${column}`)), sql.ref('l.id')], scanDirection, [
        ...columns.map((column, i) => castKey(column, cursor.key[i])),
        sql`${cursor.key[columns.length]}::uuid`,
      ]),
    )
  }
  for (const column of columns) page = page.orderBy(`l.${column}`, scanDirection)
  page = page.orderBy('l.id', scanDirection).limit(limit + 1)

  let rows = executor
    .selectFrom(page.as('l'))
    .innerJoin('users as u', 'u.id', 'l.sellerId')
    .selectAll('l')
    .select(['u.username as sellerUsername', 'u.displayName as sellerDisplayName', 'u.avatarUrl as sellerAvatarUrl'])
  for (const column of columns) rows = rows.orderBy(`l.${column}`, direction)
  return rows.orderBy('l.id', direction)
}

function relevanceQuery(executor: Kysely<DB>, filters: MarketplaceFilters, search: string, cursor: PageCursor | null, limit: number) {
  const backward = cursor?.direction === 'prev'
  const cursorSegment = cursor ? (cursor.key[0] as 1 | 2) : 1
  const conditions = filterConditions(filters, search)
  // Going forward from segment 1 (or the start) both segments follow; going
  // forward inside segment 2 only it does; going back, the mirror image.
  const segments: (1 | 2)[] = backward ? (cursorSegment === 2 ? [2, 1] : [1]) : cursorSegment === 1 ? [1, 2] : [2]
  const scanDirection: Direction = backward ? 'asc' : 'desc'

  return executor
    .with('relevanceWindow', (db) =>
      db
        .selectFrom('listings as l')
        .select([
          ...LISTING_COLUMNS,
          createdAtKey.as('createdAtKey'),
          sql<number>`ts_rank_cd(${sql.ref('l.searchVector')}, ${tsquery(search)})`.as('rank'),
        ])
        .where((eb) => eb.and(conditions))
        .orderBy('l.createdAt', 'desc')
        .orderBy('l.id', 'desc')
        .limit(RELEVANCE_WINDOW),
    )
    .selectFrom((eb) => {
      const windowed = () => {
        let rows = eb
          .selectFrom('relevanceWindow as l')
          .selectAll('l')
          .select(sql<number>`1`.as('segment'))
        if (cursor && cursorSegment === 1) {
          rows = rows.where(
            rowsAfter([sql.ref('l.rank'), sql.ref('l.createdAt'), sql.ref('l.id')], scanDirection, [
              sql`${cursor.key[1]}::real`,
              sql`${cursor.key[2]}::timestamptz`,
              sql`${cursor.key[3]}::uuid`,
            ]),
          )
        }
        return rows
          .orderBy('l.rank', scanDirection)
          .orderBy('l.createdAt', scanDirection)
          .orderBy('l.id', scanDirection)
          .limit(limit + 1)
      }
      const older = () => {
        let rows = eb
          .selectFrom('listings as l')
          .select([...LISTING_COLUMNS, createdAtKey.as('createdAtKey'), sql<number>`0::real`.as('rank'), sql<number>`2`.as('segment')])
          .where((w) => w.and(conditions))
        const afterCursor = cursor && cursorSegment === 2
        if (afterCursor) {
          rows = rows.where(
            rowsAfter([sql.ref('l.createdAt'), sql.ref('l.id')], scanDirection, [
              sql`${cursor.key[2]}::timestamptz`,
              sql`${cursor.key[3]}::uuid`,
            ]),
          )
        }
        // Older than the window's oldest row; implied by a forward cursor already inside segment 2.
        if (!(afterCursor && !backward)) {
          const oldestInWindow = eb
            .selectFrom('relevanceWindow as w')
            .select(['w.createdAt', 'w.id'])
            .orderBy('w.createdAt', 'asc')
            .orderBy('w.id', 'asc')
            .limit(1)
          rows = rows.where(sql<SqlBool>`(${sql.ref('l.createdAt')}, ${sql.ref('l.id')}) < (${oldestInWindow})`)
        }
        return rows
          .orderBy('l.createdAt', scanDirection)
          .orderBy('l.id', scanDirection)
          .limit(limit + 1)
      }
      const [first, second] = segments.map((s) => eb.selectFrom((s === 1 ? windowed() : older()).as(`segment${s}`)).selectAll())
      // UNION ALL runs its branches in order and stops at the LIMIT: segment 2
      // is only read when segment 1 runs out within the page.
      const union = second ? first!.unionAll(second) : first!
      return eb
        .selectFrom(union.as('segments'))
        .selectAll()
        .limit(limit + 1)
        .as('l')
    })
    .innerJoin('users as u', 'u.id', 'l.sellerId')
    .selectAll('l')
    .select(['u.username as sellerUsername', 'u.displayName as sellerDisplayName', 'u.avatarUrl as sellerAvatarUrl'])
    .orderBy('l.segment', 'asc')
    .orderBy('l.rank', 'desc')
    .orderBy('l.createdAt', 'desc')
    .orderBy('l.id', 'desc')
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isSafeInteger(limit)) return PAGE_SIZE
  return Math.min(Math.max(limit, 1), MAX_PAGE_SIZE)
}

type ResultRow = Awaited<ReturnType<ReturnType<typeof sortedQuery>['execute']>>[number]

function toSummary(row: ResultRow): ListingSummary {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    shortDescription: row.shortDescription,
    type: row.type,
    licence: row.licence,
    priceCents: row.priceCents,
    currency: row.currency,
    languages: row.languages,
    frameworks: row.frameworks,
    dependencies: row.dependencies,
    tags: row.tags,
    thumbnailUrl: row.thumbnailUrl,
    setupCallAvailable: row.setupCallAvailable,
    setupCallDetails: row.setupCallDetails,
    emailSupportAvailable: row.emailSupportAvailable,
    emailSupportDuration: row.emailSupportDuration,
    bespokeDevelopmentAvailable: row.bespokeDevelopmentAvailable,
    bespokeDevelopmentRateCents: row.bespokeDevelopmentRateCents,
    deliveryTimeframe: row.deliveryTimeframe,
    additionalNotes: row.additionalNotes,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    lastUpdatedAt: row.lastUpdatedAt,
    sellerId: row.sellerId,
    seller: { username: row.sellerUsername, displayName: row.sellerDisplayName, avatarUrl: row.sellerAvatarUrl },
    rating: { average: row.ratingCount > 0 ? row.ratingAverageTenths / 10 : null, count: row.ratingCount },
  }
}

function cursorFor(order: ResultOrder, correctedSearch: string | null, row: ResultRow, direction: 'next' | 'prev'): string {
  const key: (string | number)[] =
    order === 'relevance'
      ? [Number(row.segment), Number(row.rank), row.createdAtKey, row.id]
      : order === 'price-low' || order === 'price-high'
        ? [row.priceCents, row.id]
        : order === 'top-rated'
          ? [row.ratingScore, row.createdAtKey, row.id]
          : order === 'recently-updated'
            ? [row.lastUpdatedAtKey, row.id]
            : [row.createdAtKey, row.id]
  return encodeCursor({ direction, order, key, correctedSearch })
}

/**
 * One page of marketplace results. When a search term finds nothing at all,
 * its unknown words are corrected against the title vocabulary and the search
 * runs again ('recat' → 'react'); the page's cursors remember the correction.
 */
// --- Compiled statements ---------------------------------------------------------

/** How many compiled searches are kept (a few hundred bytes of SQL each). */
const COMPILED_CACHE_SIZE = 500
const compiledSearches = new Map<string, CompiledQuery<ResultRow>>()

/**
 * The SQL and parameters of a search, compiled once per distinct request and
 * then reused: building and compiling the query tree was a seventh of the CPU
 * of GET /api/listings (issue 10 profile). Only the text of the statement is
 * kept — every request still runs it, unnamed, against the database. Least
 * recently used entries go first; popular searches (the first page of a
 * common term or filter) stay.
 */
export function compiledSearchQuery(filters: MarketplaceFilters, page: SearchPageRequest = {}): CompiledQuery<ResultRow> {
  const key = JSON.stringify([filters, page.cursor ?? null, clampLimit(page.limit), page.search === undefined ? 0 : [page.search]])
  let compiled = compiledSearches.get(key)
  if (compiled) {
    compiledSearches.delete(key)
  } else {
    compiled = buildSearchQuery(filters, page).compile() as CompiledQuery<ResultRow>
    if (compiledSearches.size >= COMPILED_CACHE_SIZE) compiledSearches.delete(compiledSearches.keys().next().value!)
  }
  compiledSearches.set(key, compiled)
  return compiled
}

async function runSearchQuery(filters: MarketplaceFilters, page: SearchPageRequest): Promise<ResultRow[]> {
  return (await appDb.executeQuery(compiledSearchQuery(filters, page))).rows
}

export async function searchListings(
  filters: MarketplaceFilters,
  page: { cursor?: PageCursor | null; limit?: number } = {},
): Promise<SearchResult> {
  const limit = clampLimit(page.limit)
  const cursor = page.cursor ?? null
  let correctedSearch = cursor?.correctedSearch ?? null
  let rows = await runSearchQuery(filters, { cursor, limit })
  if (rows.length === 0 && !cursor && filters.search !== null) {
    correctedSearch = await correctSearchTerm(filters.search)
    if (correctedSearch) rows = await runSearchQuery(filters, { limit, search: correctedSearch })
    if (rows.length === 0) correctedSearch = null
  }

  const backward = cursor?.direction === 'prev'
  const hasMore = rows.length > limit
  // The extra row sits past the far end of the page: last going forward, first going back.
  if (hasMore) rows = backward ? rows.slice(1) : rows.slice(0, limit)
  const first = rows[0]
  const last = rows[rows.length - 1]
  const hasNextPage = Boolean(last) && (backward || hasMore)
  const hasPreviousPage = Boolean(first) && (backward ? hasMore : cursor !== null)
  const order = resultOrder(filters)
  return {
    listings: rows.map(toSummary),
    pagination: {
      limit,
      hasNextPage,
      hasPreviousPage,
      nextCursor: hasNextPage && last ? cursorFor(order, correctedSearch, last, 'next') : null,
      previousCursor: hasPreviousPage && first ? cursorFor(order, correctedSearch, first, 'prev') : null,
    },
    correctedSearch,
  }
}

// --- Typo tolerance ------------------------------------------------------------

const MAX_CORRECTED_WORDS = 8

/** Edits allowed for a word of this length: 1 up to 5 letters, 2 up to 9, then 3. */
function allowedEdits(length: number): number {
  return length <= 5 ? 1 : length <= 9 ? 2 : 3
}

/** Optimal string alignment distance: Levenshtein plus adjacent transpositions ('recat' → 'react' is 1). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1
  const cols = b.length + 1
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
      }
    }
  }
  return d[a.length]![b.length]!
}

/**
 * Runs `work` in a transaction whose pg_trgm similarity threshold is
 * CORRECTION_SIMILARITY (SET LOCAL: it never leaks to other pool users).
 */
export async function withCorrectionThreshold<T>(executor: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return executor.transaction().execute(async (trx) => {
    await sql`SELECT set_config('pg_trgm.similarity_threshold', ${String(CORRECTION_SIMILARITY)}, true)`.execute(trx)
    return work(trx)
  })
}

export interface CorrectionCandidates {
  word: string
  /** In the vocabulary: a real word, never corrected. */
  known: boolean
  /** Vocabulary terms that look like the word, most similar first. */
  candidates: { term: string; uses: number }[]
}

/**
 * For each word, whether the vocabulary (search_terms, migrations/0002) knows
 * it and which terms look like it (trigram similarity, served by
 * search_terms_trgm_idx). Run it through withCorrectionThreshold.
 */
export function buildCorrectionQuery(words: string[]) {
  return sql<CorrectionCandidates>`
    SELECT w.word,
      EXISTS (SELECT 1 FROM search_terms t WHERE t.term = w.word) AS known,
      coalesce((
        SELECT json_agg(json_build_object('term', c.term, 'uses', c.uses) ORDER BY c.similarity DESC, c.term)
        FROM (
          SELECT t.term, t.uses, similarity(t.term, w.word) AS similarity
          FROM search_terms t
          WHERE t.term % w.word
          ORDER BY similarity DESC, t.term
          LIMIT 100
        ) c
      ), '[]') AS candidates
    FROM unnest(${words}::text[]) AS w(word)`
}

/**
 * The search term with each word missing from the vocabulary replaced by the
 * closest term: fewest edits (within allowedEdits), then the most used, then
 * the most similar. Null when no word could be corrected.
 */
export async function correctSearchTerm(search: string, executor: Kysely<DB> = appDb): Promise<string | null> {
  const words = [...new Set(search.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])]
    .filter((w) => w.length >= 4 && w.length <= 40)
    .slice(0, MAX_CORRECTED_WORDS)
  if (words.length === 0) return null

  const rows = await withCorrectionThreshold(executor, async (trx) => (await buildCorrectionQuery(words).execute(trx)).rows)

  const corrections = new Map<string, string>()
  for (const { word, known, candidates } of rows) {
    if (known) continue
    let best: { term: string; uses: number; distance: number } | null = null
    for (const candidate of candidates) {
      const distance = editDistance(word, candidate.term)
      if (distance > allowedEdits(word.length)) continue
      if (!best || distance < best.distance || (distance === best.distance && candidate.uses > best.uses)) {
        best = { ...candidate, distance }
      }
    }
    if (best) corrections.set(word, best.term)
  }
  if (corrections.size === 0) return null
  return search.replace(/[\p{L}\p{N}]+/gu, (word) => corrections.get(word.toLowerCase()) ?? word)
}
