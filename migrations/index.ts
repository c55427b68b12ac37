import type { Migration } from 'kysely'
import * as initialSchema from './0001_initial_schema.ts'
import * as searchTerms from './0002_search_terms.ts'
import * as paymentHolds from './0003_payment_holds.ts'
import * as bankDetailsVersion from './0004_bank_details_version.ts'
import * as revokedSessions from './0005_revoked_sessions.ts'
import * as sellerShare from './0006_seller_share.ts'
import * as githubDelivery from './0007_github_delivery.ts'
import * as notifications from './0008_notifications.ts'
import * as reviews from './0009_reviews.ts'
import * as saleMessages from './0010_sale_messages.ts'
import * as ledger from './0011_ledger.ts'
import * as payoutBatches from './0012_payout_batches.ts'
import * as rateLimits from './0013_rate_limits.ts'
import * as listingViews from './0014_listing_views.ts'
import * as listingIdempotencyKeys from './0015_listing_idempotency_keys.ts'
import * as saleMessageIdempotencyKeys from './0016_sale_message_idempotency_keys.ts'
import * as imageOwners from './0017_image_owners.ts'
import * as outboxSendClaim from './0018_outbox_send_claim.ts'
import * as apiKeys from './0019_api_keys.ts'
import * as reportsAndTakedowns from './0020_reports_and_takedowns.ts'
import * as userSuspensions from './0021_user_suspensions.ts'
import * as webhooks from './0022_webhooks.ts'
import * as githubCheckReadings from './0023_github_check_readings.ts'
import * as listingReleases from './0024_listing_releases.ts'
import * as hiddenReviewsIndex from './0025_hidden_reviews_index.ts'
import * as searchFacetsIndex from './0026_search_facets_index.ts'

// Every migration, in order. Listed explicitly (not read from the folder) so
// the same code runs under tsx, Vite and Vitest; a test checks none is missing.
export const migrations: Record<string, Migration> = {
  '0001_initial_schema': initialSchema,
  '0002_search_terms': searchTerms,
  '0003_payment_holds': paymentHolds,
  '0004_bank_details_version': bankDetailsVersion,
  '0005_revoked_sessions': revokedSessions,
  '0006_seller_share': sellerShare,
  '0007_github_delivery': githubDelivery,
  '0008_notifications': notifications,
  '0009_reviews': reviews,
  '0010_sale_messages': saleMessages,
  '0011_ledger': ledger,
  '0012_payout_batches': payoutBatches,
  '0013_rate_limits': rateLimits,
  '0014_listing_views': listingViews,
  '0015_listing_idempotency_keys': listingIdempotencyKeys,
  '0016_sale_message_idempotency_keys': saleMessageIdempotencyKeys,
  '0017_image_owners': imageOwners,
  '0018_outbox_send_claim': outboxSendClaim,
  '0019_api_keys': apiKeys,
  '0020_reports_and_takedowns': reportsAndTakedowns,
  '0021_user_suspensions': userSuspensions,
  '0022_webhooks': webhooks,
  '0023_github_check_readings': githubCheckReadings,
  '0024_listing_releases': listingReleases,
  '0025_hidden_reviews_index': hiddenReviewsIndex,
  '0026_search_facets_index': searchFacetsIndex,
}
