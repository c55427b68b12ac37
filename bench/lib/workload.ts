import type pg from 'pg'

export interface BenchQuery {
  name: string
  /** The query string (no '?'), as the marketplace's links and the API client send it: sortBy always set. */
  query: string
}

export interface Workload {
  queries: BenchQuery[]
  /** Visible listings for C, in a fixed pseudo-random order. */
  slugs: string[]
  /** Listings each query matches (first page or not), for the record. */
  matches: Record<string, number>
}

const VISIBLE = 'visible AND archived_at IS NULL'
const STOP_WORDS = new Set(['with', 'from', 'your', 'that', 'this', 'into', 'for', 'and', 'the', 'over'])

async function titleWords(client: pg.Client): Promise<Array<{ word: string; n: number }>> {
  const { rows } = await client.query<{ word: string; n: number }>(
    `SELECT word, count(DISTINCT id)::int AS n
       FROM listings, regexp_split_to_table(lower(title), '[^a-z]+') AS word
      WHERE ${VISIBLE} AND length(word) >= 4
      GROUP BY word`,
  )
  return rows.filter((r) => !STOP_WORDS.has(r.word))
}

async function fullTextCount(client: pg.Client, term: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM listings WHERE ${VISIBLE} AND search_vector @@ websearch_to_tsquery('english', $1)`,
    [term],
  )
  return rows[0]!.n
}

/** The title word whose full-text matches are closest to `target` listings (at least one). */
async function termNear(client: pg.Client, words: Array<{ word: string; n: number }>, target: number, exclude: string[] = []) {
  const candidates = words
    .filter((w) => !exclude.includes(w.word))
    .sort((a, b) => Math.abs(Math.log(a.n / target)) - Math.abs(Math.log(b.n / target)) || a.word.localeCompare(b.word))
    .slice(0, 25)
  let best: { word: string; n: number } | null = null
  for (const candidate of candidates) {
    // Stemming can make a rare title word match many documents ('analytic' → 'analyt'): count what the search matches.
    const n = await fullTextCount(client, candidate.word)
    if (n === 0) continue
    if (!best || Math.abs(Math.log(n / target)) < Math.abs(Math.log(best.n / target))) best = { word: candidate.word, n }
  }
  if (!best) throw new Error(`no title word matches about ${target} listings`)
  return best
}

async function mostCommon(client: pg.Client, column: 'languages' | 'frameworks'): Promise<string> {
  const { rows } = await client.query<{ value: string }>(
    `SELECT value FROM listings, unnest(${column}) AS value WHERE ${VISIBLE} GROUP BY value ORDER BY count(*) DESC, value LIMIT 1`,
  )
  if (!rows[0]) throw new Error(`no listing has any ${column}`)
  return rows[0].value
}

const qs = (entries: Record<string, string>) => new URLSearchParams(entries).toString()

/**
 * The six realistic marketplace queries of the issue, with values taken from
 * the seeded data so they stay realistic whatever the seeder generates: a
 * text search (a title word in about 5 % of listings), a language filter, a
 * price range sorted by price, three filters combined, a rare selective
 * search (about 0.05 % of listings), and no filter, newest first.
 */
export async function chooseWorkload(client: pg.Client, slugCount = 1000): Promise<Workload> {
  const { rows: countRows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM listings WHERE ${VISIBLE}`)
  const total = countRows[0]!.n
  if (total === 0) throw new Error('the database has no visible listings')

  const words = await titleWords(client)
  const common = await termNear(client, words, Math.max(1, total * 0.05))
  const rare = await termNear(client, words, Math.max(1, total * 0.0005), [common.word])
  const language = await mostCommon(client, 'languages')
  const framework = await mostCommon(client, 'frameworks')
  const { rows: priceRows } = await client.query<{ low: number; high: number }>(
    `SELECT percentile_disc(0.2) WITHIN GROUP (ORDER BY price_cents) AS low,
            percentile_disc(0.6) WITHIN GROUP (ORDER BY price_cents) AS high
       FROM listings WHERE ${VISIBLE}`,
  )
  const minPrice = Math.floor(priceRows[0]!.low / 100)
  const maxPrice = Math.max(minPrice + 1, Math.ceil(priceRows[0]!.high / 100))

  const queries: BenchQuery[] = [
    { name: 'text search', query: qs({ search: common.word, sortBy: 'newest' }) },
    { name: 'language filter', query: qs({ languages: language, sortBy: 'newest' }) },
    { name: 'price range, price sort', query: qs({ minPrice: String(minPrice), maxPrice: String(maxPrice), sortBy: 'price-low' }) },
    { name: 'three filters', query: qs({ type: 'template', frameworks: framework, hasEmailSupport: 'true', sortBy: 'newest' }) },
    { name: 'rare search', query: qs({ search: rare.word, sortBy: 'newest' }) },
    { name: 'no filter, newest', query: qs({ sortBy: 'newest' }) },
  ]
  const { rows: slugRows } = await client.query<{ slug: string }>(
    `SELECT slug FROM listings WHERE ${VISIBLE} ORDER BY md5(slug) LIMIT $1`,
    [slugCount],
  )
  return {
    queries,
    slugs: slugRows.map((r) => r.slug),
    matches: { [queries[0]!.name]: common.n, [queries[4]!.name]: rare.n, total },
  }
}
