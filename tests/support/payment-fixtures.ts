import { splitFee } from '../../app/lib/money.ts'
import { syncUser } from '../../app/server/domain/users.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import type { TransactionStatus } from '../../db/schema.ts'
import { authEmulator, stripeAsBrowser as stripe } from './services.ts'
import { webhookSecret } from './stripe.ts'

// Fixtures for the checkout, webhook and escrow suites.

let counter = 0

/** A signed-up user (product row synced) and a bearer token for /api calls. */
export async function signUp(prefix: string, { admin = false }: { admin?: boolean } = {}) {
  counter += 1
  const email = `${prefix}-${counter}-${Math.random().toString(36).slice(2, 6)}@example.com`
  const session = await authEmulator.createSession({ email, fullName: prefix })
  await syncUser({ id: session.user.id, email, displayName: prefix, avatarUrl: null })
  if (admin) await db.updateTable('users').set({ isAdmin: true }).where('id', '=', session.user.id).execute()
  return { id: session.user.id, email, token: session.access_token }
}

export async function giveBankDetails(userId: string, status: 'pending' | 'approved' | 'rejected') {
  const now = new Date()
  await db
    .insertInto('bankDetails')
    .values({
      userId,
      country: 'GB',
      accountHolder: 'Test Seller',
      bankName: 'Test Bank',
      sortCode: '112233',
      accountNumberLast4: '1234',
      status,
      requestedAt: now,
      approvedAt: status === 'approved' ? now : null,
      rejectedAt: status === 'rejected' ? now : null,
      rejectionReason: status === 'rejected' ? 'Account holder name does not match' : null,
    })
    .execute()
}

export async function createListing(
  sellerId: string,
  options: { priceCents?: number; visible?: boolean; instantDeliveryUrl?: string; archived?: boolean } = {},
) {
  counter += 1
  return db
    .insertInto('listings')
    .values({
      sellerId,
      title: `Starter Kit ${counter}`,
      slug: `starter-kit-${counter}-${Math.random().toString(36).slice(2, 8)}`,
      shortDescription: 'A test listing',
      type: 'template',
      priceCents: options.priceCents ?? 4900,
      licence: 'personal',
      visible: options.visible ?? true,
      archivedAt: options.archived ? new Date() : null,
      deliveryTimeframe: options.instantDeliveryUrl ? 'instant' : '24-hours',
      deliveryUrl: options.instantDeliveryUrl ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A seller with approved bank details and one listing. */
export async function sellerWithListing(options: Parameters<typeof createListing>[1] = {}) {
  const seller = await signUp('seller')
  await giveBankDetails(seller.id, 'approved')
  const listing = await createListing(seller.id, options)
  return { seller, listing }
}

/** A sale row straight into the table, in any state (for state-machine tests). */
export async function insertSale(input: {
  listingId: string
  sellerId: string
  buyerId: string
  status: TransactionStatus
  amountCents?: number
  deliveredAt?: Date
  stripePaymentIntentId?: string
}) {
  const fee = splitFee(input.amountCents ?? 4900)
  const delivered = ['delivered', 'completed', 'disputed'].includes(input.status)
  const deliveredAt = input.deliveredAt ?? (delivered ? new Date() : null)
  return db
    .insertInto('transactions')
    .values({
      listingId: input.listingId,
      sellerId: input.sellerId,
      buyerId: input.buyerId,
      stripePaymentIntentId: input.stripePaymentIntentId ?? `pi_fixture_${Math.random().toString(36).slice(2)}`,
      amountCents: fee.amountCents,
      applicationFeeCents: fee.applicationFeeCents,
      status: input.status,
      deliveredAt,
      deliveryProof: deliveredAt ? JSON.stringify({ forkUrl: 'https://github.com/buyer/fork' }) : null,
      completedAt: input.status === 'completed' ? new Date() : null,
      disputedAt: input.status === 'disputed' ? new Date() : null,
      disputeReason: input.status === 'disputed' ? 'It does not build' : null,
      refundedAt: input.status === 'refunded' ? new Date() : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The Stripe SDK pointed at this file's emulator (to play the browser's part: confirm an intent). */
export { stripe }

/** Pays a PaymentIntent with a test card number, as Stripe.js would from the card form. */
export async function payIntent(clientSecret: string, cardNumber = '4242424242424242') {
  const intentId = clientSecret.split('_secret_')[0]!
  return stripe.paymentIntents.confirm(intentId, {
    payment_method_data: {
      type: 'card',
      // @ts-expect-error raw card numbers are accepted by test mode / the emulator, not typed by the SDK
      card: { number: cardNumber, exp_month: 12, exp_year: new Date().getFullYear() + 3, cvc: '123' },
    },
  })
}

/** A body signed like Stripe signs its webhooks (optionally with a moved timestamp or another secret). */
export function signedEvent(event: object, { timestamp, secret }: { timestamp?: number; secret?: string } = {}) {
  const payload = JSON.stringify(event)
  const header = stripe.webhooks.generateTestHeaderString({
    payload,
    secret: secret ?? webhookSecret,
    timestamp: timestamp ?? Math.floor(Date.now() / 1000),
  })
  return { payload, header }
}

export async function saleStatus(id: string) {
  const row = await db.selectFrom('transactions').select('status').where('id', '=', id).executeTakeFirstOrThrow()
  return row.status
}
