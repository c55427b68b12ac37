import { splitFee } from '../../app/lib/money.ts'
import { syncUser } from '../../app/server/domain/users.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { encryptSecret } from '../../app/server/infra/secret-box.server.ts'
import type { TransactionStatus } from '../../db/schema.ts'
import { APP } from '../support/call-route.ts'
import { authEmulator } from '../support/services.ts'

// Fixtures shared by the seller dashboard, bank details and admin suites.

let counter = 0

/** A signed-up user (product row synced) and a bearer token for /api calls. */
export async function signUp(email: string, { admin = false }: { admin?: boolean } = {}) {
  const session = await authEmulator.createSession({ email, fullName: email.split('@')[0] })
  await syncUser({ id: session.user.id, email, displayName: email.split('@')[0]!, avatarUrl: null })
  if (admin) await db.updateTable('users').set({ isAdmin: true }).where('id', '=', session.user.id).execute()
  return { id: session.user.id, email, token: session.access_token }
}

export async function createListing(
  sellerId: string,
  { priceCents = 10000, visible = true, title }: { priceCents?: number; visible?: boolean; title?: string } = {},
) {
  counter += 1
  return db
    .insertInto('listings')
    .values({
      sellerId,
      title: title ?? `Listing ${counter}`,
      slug: `listing-${counter}-${Math.random().toString(36).slice(2, 8)}`,
      shortDescription: 'A test listing',
      type: 'template',
      priceCents,
      licence: 'personal',
      visible,
    })
    .returning(['id', 'title', 'slug', 'priceCents'])
    .executeTakeFirstOrThrow()
}

/** A sale in any escrow state, with the timestamps its state requires. */
export async function createSale(input: {
  listingId: string
  sellerId: string
  buyerId: string
  amountCents: number
  status: TransactionStatus
  paymentReference?: string
  createdAt?: Date
}) {
  const { amountCents, applicationFeeCents } = splitFee(input.amountCents)
  const now = input.createdAt ?? new Date()
  const delivered = ['delivered', 'completed', 'disputed'].includes(input.status)
  return db
    .insertInto('transactions')
    .values({
      listingId: input.listingId,
      sellerId: input.sellerId,
      buyerId: input.buyerId,
      stripePaymentIntentId: `pi_test_${Math.random().toString(36).slice(2)}`,
      amountCents,
      applicationFeeCents,
      status: input.status,
      createdAt: now,
      deliveredAt: delivered ? now : null,
      deliveryProof: delivered ? JSON.stringify({ forkUrl: 'https://github.com/buyer/fork' }) : null,
      completedAt: input.status === 'completed' ? now : null,
      disputedAt: input.status === 'disputed' ? now : null,
      disputeReason: input.status === 'disputed' ? 'It does not build' : null,
      refundedAt: input.status === 'refunded' ? now : null,
      paymentReference: input.paymentReference ?? null,
      paidAt: input.paymentReference ? now : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export const GB_ACCOUNT = '31415926'

/** Bank details straight into the table (encrypted like the app does). */
export async function giveBankDetails(userId: string, status: 'pending' | 'approved' | 'rejected', accountNumber = GB_ACCOUNT) {
  const now = new Date()
  await db
    .insertInto('bankDetails')
    .values({
      userId,
      country: 'GB',
      accountHolder: 'Test Seller',
      bankName: 'Monzo',
      sortCode: '040004',
      accountNumberEncrypted: encryptSecret(accountNumber),
      accountNumberLast4: accountNumber.slice(-4),
      status,
      approvedAt: status === 'approved' ? now : null,
      rejectedAt: status === 'rejected' ? now : null,
      rejectionReason: status === 'rejected' ? 'Name mismatch' : null,
    })
    .execute()
}

/** A form post to a screen action, as a browser without JavaScript sends it. */
export function formRequest(path: string, fields: Record<string, string>, token?: string) {
  const headers = new Headers({ Origin: APP, 'Content-Type': 'application/x-www-form-urlencoded' })
  if (token) headers.set('Authorization', `Bearer ${token}`)
  return new Request(`${APP}${path}`, { method: 'POST', headers, body: new URLSearchParams(fields).toString() })
}

export function screenRequest(path: string, token?: string) {
  const headers = new Headers()
  if (token) headers.set('Authorization', `Bearer ${token}`)
  return new Request(`${APP}${path}`, { headers })
}
