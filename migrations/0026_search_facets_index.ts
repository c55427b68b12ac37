import { sql, type Kysely } from 'kysely'

/**
 * Issue 28.5: one GIN index serves the search text and the facets together. With an index per column
 * (0001), PostgreSQL took one of them for `search=authentication&languages=Python` at 10k listings —
 * the languages index, 1,262 rows — and read ~1,000 table pages to recheck the text match, throwing
 * away 963 rows. A multicolumn GIN index answers any subset of its columns as well as a one-column
 * index does (PostgreSQL's documentation, "Multicolumn Indexes"), and several of them in one scan: that
 * search reads the 299 matching rows' pages only. So it replaces the four one-column indexes (fewer
 * index entries to write per listing, too). Same partial predicate as every marketplace index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX listings_search_facets_idx ON listings USING gin (search_vector, languages, frameworks, dependencies)
    WHERE visible AND archived_at IS NULL`.execute(db)
  await sql`DROP INDEX listings_search_idx, listings_languages_idx, listings_frameworks_idx, listings_dependencies_idx`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX listings_search_idx ON listings USING gin (search_vector) WHERE visible AND archived_at IS NULL`.execute(db)
  await sql`CREATE INDEX listings_languages_idx ON listings USING gin (languages) WHERE visible AND archived_at IS NULL`.execute(db)
  await sql`CREATE INDEX listings_frameworks_idx ON listings USING gin (frameworks) WHERE visible AND archived_at IS NULL`.execute(db)
  await sql`CREATE INDEX listings_dependencies_idx ON listings USING gin (dependencies) WHERE visible AND archived_at IS NULL`.execute(db)
  await sql`DROP INDEX listings_search_facets_idx`.execute(db)
}
