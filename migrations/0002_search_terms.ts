import { sql, type Kysely } from 'kysely'

/**
 * The vocabulary of listings (titles, short descriptions, tags and stacks),
 * for the marketplace's typo tolerance ('recat' → 'react'): when a search
 * finds nothing, each of its words missing from here is matched against these
 * terms with pg_trgm and corrected (app/server/domain/search.server.ts). `uses` counts
 * the listings that brought a term (never decremented: a popularity hint to
 * choose between corrections). Long descriptions are left out: tokenizing them
 * doubled the cost of every insert, and their words are not what people mistype.
 *
 * Why not trigram matching on the titles themselves: 'recat' shares only two of
 * six trigrams with 'react', so a threshold low enough to find it matches about
 * a quarter of all titles (every word starting with "re"), and ranking those
 * took a second at 100,000 listings. The vocabulary is a few thousand words.
 *
 * Kept by statement-level triggers: one grouped upsert per statement, cheap for
 * the bulk seeder's 5,000-row batches. Terms are never removed; a stale term can
 * only suggest a correction that then finds nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The backfill reads every listing; the app's 10 s statement timeout is for requests.
  await sql`SET LOCAL statement_timeout = 0`.execute(db)
  await sql`
    CREATE TABLE search_terms (
      term text PRIMARY KEY,
      uses integer NOT NULL DEFAULT 1 CHECK (uses >= 1)
    )`.execute(db)
  await sql`CREATE INDEX search_terms_trgm_idx ON search_terms USING gin (term gin_trgm_ops)`.execute(db)
  // Unstemmed, lower-case words.
  await sql`
    CREATE FUNCTION listing_terms(l listings) RETURNS text[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT coalesce(array_agg(term), '{}')
      FROM unnest(tsvector_to_array(to_tsvector('simple'::regconfig, concat_ws(' ',
        l.title, l.short_description, array_to_string(l.tags, ' '), array_to_string(l.languages, ' '),
        array_to_string(l.frameworks, ' '), array_to_string(l.dependencies, ' ')
      )))) AS term
      WHERE length(term) BETWEEN 3 AND 40
    $$`.execute(db)
  await sql`
    CREATE FUNCTION count_new_listing_terms() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO search_terms (term, uses)
      SELECT term, count(*) FROM new_listings, unnest(listing_terms(new_listings)) AS term
      GROUP BY term
      -- One lock order for every writer: concurrent inserts of shared words can't deadlock.
      ORDER BY term
      ON CONFLICT (term) DO UPDATE SET uses = search_terms.uses + excluded.uses;
      RETURN NULL;
    END
    $$`.execute(db)
  // An edit adds the words it introduces without counting the listing again.
  await sql`
    CREATE FUNCTION add_edited_listing_terms() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO search_terms (term)
      SELECT DISTINCT term FROM new_listings, unnest(listing_terms(new_listings)) AS term
      ORDER BY term
      ON CONFLICT (term) DO NOTHING;
      RETURN NULL;
    END
    $$`.execute(db)
  // Transition tables allow one event per trigger, hence two.
  await sql`
    CREATE TRIGGER listings_terms_insert AFTER INSERT ON listings
    REFERENCING NEW TABLE AS new_listings FOR EACH STATEMENT EXECUTE FUNCTION count_new_listing_terms()`.execute(db)
  await sql`
    CREATE TRIGGER listings_terms_update AFTER UPDATE ON listings
    REFERENCING NEW TABLE AS new_listings FOR EACH STATEMENT EXECUTE FUNCTION add_edited_listing_terms()`.execute(db)
  await sql`
    INSERT INTO search_terms (term, uses)
    SELECT term, count(*) FROM listings, unnest(listing_terms(listings)) AS term GROUP BY term`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS listings_terms_update ON listings`.execute(db)
  await sql`DROP TRIGGER IF EXISTS listings_terms_insert ON listings`.execute(db)
  await sql`DROP FUNCTION IF EXISTS add_edited_listing_terms()`.execute(db)
  await sql`DROP FUNCTION IF EXISTS count_new_listing_terms()`.execute(db)
  await sql`DROP FUNCTION IF EXISTS listing_terms(listings)`.execute(db)
  await sql`DROP TABLE IF EXISTS search_terms`.execute(db)
}
