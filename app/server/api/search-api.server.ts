import { parseFilters } from '~/lib/filters'
import { AppError } from '../domain/errors.server.ts'
import { MAX_PAGE_SIZE, PAGE_SIZE, searchListings } from '../domain/search.server.ts'
import { specObjects } from './listing-api.server.ts'

/**
 * GET /api/listings — the marketplace query of spec §7 (filter state in the
 * query string, multi-values comma-joined), plus `cursor` and `limit` (1–100,
 * default 24). Answers `{ listings, pagination, correctedSearch }`, each listing
 * with the spec's `techStack` and `support` objects beside its flat fields; any
 * bad value answers 400 `{ error, field }`.
 */
export async function searchListingsApi(params: URLSearchParams) {
  const parsed = parseFilters(params)
  if (!parsed.ok) throw new AppError(400, parsed.error.message, { extra: { field: parsed.error.field } })

  const rawLimit = params.get('limit')?.trim() || ''
  let limit = PAGE_SIZE
  if (rawLimit) {
    if (!/^\d{1,3}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > MAX_PAGE_SIZE) {
      throw new AppError(400, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`, { extra: { field: 'limit' } })
    }
    limit = Number(rawLimit)
  }
  const result = await searchListings(parsed.filters, { cursor: parsed.cursor, limit })
  // The rows are this request's own objects: add the nested objects in place, no copy per row.
  return { ...result, listings: result.listings.map((listing) => Object.assign(listing, specObjects(listing))) }
}
