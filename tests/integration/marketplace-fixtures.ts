import { sql } from 'kysely'
import * as listingsRoute from '../../app/routes/api/listings.ts'
import { db } from '../../app/server/infra/db.server.ts'
import type { NewListing } from '../../db/schema.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { giveBankDetails } from '../support/payment-fixtures.ts'

/** A seller who can take payments (bank details on file): the marketplace shows only their listings (issue 26.13). */
export async function makeSeller(username = 'seller', displayName = 'Sam Seller', { bank = true }: { bank?: boolean } = {}) {
  const seller = await db
    .insertInto('users')
    .values({ username, displayName, email: `${username}@example.com`, avatarUrl: `https://avatars.example.com/${username}.png` })
    .returning(['id', 'username', 'displayName', 'avatarUrl'])
    .executeTakeFirstOrThrow()
  if (bank) await giveBankDetails(seller.id, 'pending')
  return seller
}

let slugCounter = 0

/** A listing row with sensible defaults; `createdAt` as an ISO string keeps microseconds. */
export function listingRow(sellerId: string, overrides: Partial<NewListing> & { title: string }): NewListing {
  slugCounter += 1
  return {
    sellerId,
    slug: `${overrides.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')}-${slugCounter}`,
    shortDescription: 'A listing for tests.',
    type: 'template',
    priceCents: 1000,
    licence: 'personal',
    ...overrides,
  }
}

export async function insertListings(rows: NewListing[]): Promise<{ id: string; title: string }[]> {
  if (rows.length === 0) return []
  return db.insertInto('listings').values(rows).returning(['id', 'title']).execute()
}

/** The typo vocabulary is not truncated between tests (migrations/0002); start it from the fixtures. */
export async function resetSearchTerms() {
  await sql`DELETE FROM search_terms`.execute(db)
}

export interface ApiListing {
  id: string
  slug: string
  title: string
  priceCents: number
  createdAt: string
  seller: { username: string; displayName: string; avatarUrl: string | null }
  [key: string]: unknown
}

export interface ApiPage {
  listings: ApiListing[]
  pagination: { limit: number; hasNextPage: boolean; hasPreviousPage: boolean; nextCursor: string | null; previousCursor: string | null }
  correctedSearch: string | null
}

export async function getListings(query: string): Promise<{ status: number; body: any }> {
  const response = await callRoute(listingsRoute, apiRequest(`/api/listings${query ? `?${query}` : ''}`))
  return { status: response.status, body: await response.json() }
}

export async function getPage(query: string): Promise<ApiPage> {
  const { status, body } = await getListings(query)
  if (status !== 200) throw new Error(`GET /api/listings?${query} → ${status} ${JSON.stringify(body)}`)
  return body as ApiPage
}

function withCursor(query: string, cursor: string) {
  const params = new URLSearchParams(query)
  params.set('cursor', cursor)
  return params.toString()
}

/** Walks every page forward, then back from the last page; returns both id sequences. */
export async function walkPages(query: string, maxPages = 500) {
  const pages: ApiPage[] = [await getPage(query)]
  while (pages.at(-1)!.pagination.nextCursor) {
    if (pages.length > maxPages) throw new Error('too many pages')
    pages.push(await getPage(withCursor(query, pages.at(-1)!.pagination.nextCursor!)))
  }
  const forward = pages.flatMap((p) => p.listings.map((l) => l.id))
  const backPages: ApiPage[] = [pages.at(-1)!]
  while (backPages.at(-1)!.pagination.previousCursor) {
    if (backPages.length > maxPages) throw new Error('too many pages')
    backPages.push(await getPage(withCursor(query, backPages.at(-1)!.pagination.previousCursor!)))
  }
  const backward = backPages.reverse().flatMap((p) => p.listings.map((l) => l.id))
  return { pages, forward, backward }
}
