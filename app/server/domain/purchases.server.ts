import { ACCESS_STATUSES, windowEndsAt } from '~/lib/escrow'
import type { TransactionStatus } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { purchaseGithubViews, type PurchaseGithub } from './github-views.server.ts'

/** The buyer's purchases (My Purchases, GET /api/purchases): what the buyer reads of their sales. */

/** Statuses shown in My Purchases: attempts that never got paid are not purchases. */
const PURCHASE_STATUSES: readonly TransactionStatus[] = ['paid', 'delivering', 'delivered', 'completed', 'disputed', 'refunded', 'held']

export interface Purchase {
  id: string
  createdAt: Date
  amountCents: number
  status: TransactionStatus
  listing: { id: string; title: string; slug: string }
  seller: { username: string }
  /** Only while the buyer has access (a refund ends it). */
  deliveryProof: { forkUrl: string } | null
  deliveredAt: Date | null
  /** When the 72-hour window ends, for a delivered sale. */
  windowEndsAt: Date | null
  disputeReason: string | null
  /** Delivery through GitHub (issue 16): the invitation while delivering, then the repository and the fork. */
  github: PurchaseGithub | null
}

/** The spec's buyer view (GET /api/purchases and /purchases), newest first. */
export async function listPurchases(buyerId: string): Promise<Purchase[]> {
  const rows = await db
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .innerJoin('users as seller', 'seller.id', 'transactions.sellerId')
    .select([
      'transactions.id',
      'transactions.createdAt',
      'transactions.amountCents',
      'transactions.status',
      'transactions.deliveryProof',
      'transactions.deliveredAt',
      'transactions.disputeReason',
      'listings.id as listingId',
      'listings.title',
      'listings.slug',
      'seller.username as sellerUsername',
    ])
    .where('transactions.buyerId', '=', buyerId)
    .where('transactions.status', 'in', [...PURCHASE_STATUSES])
    .orderBy('transactions.createdAt', 'desc')
    .orderBy('transactions.id', 'desc')
    .execute()
  const github = await purchaseGithubViews(rows.map((row) => row.id))
  return rows.map((row) => {
    const hasAccess = (ACCESS_STATUSES as readonly TransactionStatus[]).includes(row.status)
    const forkUrl = hasAccess ? row.deliveryProof?.forkUrl : undefined
    return {
      id: row.id,
      createdAt: row.createdAt,
      amountCents: row.amountCents,
      status: row.status,
      listing: { id: row.listingId, title: row.title, slug: row.slug },
      seller: { username: row.sellerUsername },
      deliveryProof: forkUrl ? { forkUrl } : null,
      deliveredAt: row.deliveredAt,
      windowEndsAt: row.status === 'delivered' && row.deliveredAt ? windowEndsAt(row.deliveredAt) : null,
      disputeReason: row.disputeReason,
      github: github.get(row.id) ?? null,
    }
  })
}
