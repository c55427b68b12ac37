import { sql, type Kysely } from 'kysely'
import type Stripe from 'stripe'
import { splitFee } from '../../app/lib/money.ts'
import { ratingSummary } from '../../app/lib/ratings.ts'
import { slugify } from '../../app/lib/slug.ts'
import { imageUrlFor } from '../../app/server/domain/images.server.ts'
import { backfillLedger } from '../../app/server/domain/ledger.server.ts'
import { logEvent } from '../../app/server/infra/log.server.ts'
import { encryptSecret } from '../../app/server/infra/secret-box.server.ts'
import type { DB } from '../schema.ts'
import {
  DEMO_ADMIN,
  DEMO_ADMIN_2,
  DEMO_BUYERS,
  DEMO_LISTINGS,
  DEMO_REVIEWS,
  DEMO_SELLERS,
  demoLongDescription,
  emailUserId,
} from './demo-data.ts'
import { seedDemoGithub, type DemoGithub } from './demo-github.ts'
import {
  planDemoImages,
  storeDemoScreens,
  storeDemoThumbnails,
  type DemoImageOptions,
  type DemoImagePlan,
  type DemoListingImages,
} from './demo-images.ts'
import { seedDemoMessages } from './demo-messages.ts'
import { DEMO_INTENT_PREFIX, demoListingId, demoSaleId, payDemoSales } from './demo-payments.ts'
import { seedDemoPayouts } from './demo-payouts.ts'

const HOUR = 3_600_000

let demoImagesWork: Promise<void> = Promise.resolve()

/** Settles when the demo images the last seedDemoDataOnce started are all stored (tests wait on it). */
export function demoImagesStored(): Promise<void> {
  return demoImagesWork
}

/**
 * Loads the demo marketplace unless it was loaded before. Returns whether it did.
 * The listings' card images are stored first; their other images in the
 * background (db/seed/demo-images.ts), also on later starts if an earlier one
 * stopped before they were all there.
 */
export async function seedDemoDataOnce(
  db: Kysely<DB>,
  now = new Date(),
  options: DemoImageOptions & {
    /** The GitHub emulator's demo repositories (the launcher seeds it): GitHub-delivered demo sales. */ github?: DemoGithub
    /** The launcher's Stripe emulator: the demo's sales are paid there (db/seed/demo-payments.ts). */
    stripe?: Stripe
  } = {},
): Promise<boolean> {
  const plan = planDemoImages()
  const loaded = await db.selectFrom('appMeta').select('key').where('key', '=', 'demo_seeded').executeTakeFirst()
  if (loaded) {
    // Only the images of demo listings that are still there (a seller may have deleted some).
    const rows = await db
      .selectFrom('listings')
      .select(['thumbnailUrl', 'screenshots'])
      .where(
        'sellerId',
        'in',
        DEMO_SELLERS.map((s) => emailUserId(s.email)),
      )
      .execute()
    const used = new Set(rows.flatMap((row) => [row.thumbnailUrl, ...row.screenshots]))
    completeDemoImages({ ...plan, screens: plan.screens.filter((screen) => used.has(imageUrlFor(screen.key))) }, options)
    return false
  }
  // Outside the transaction (storing is idempotent), so it stays short.
  await storeDemoThumbnails(plan, options)
  const seeded = await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('appMeta')
      .values({ key: 'demo_seeded', value: JSON.stringify(now.toISOString()) })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst()
    if (!inserted) return false
    await seedDemoData(trx, now, plan.images, options.github, options.stripe)
    return true
  })
  completeDemoImages(plan, options)
  return seeded
}

function completeDemoImages(plan: DemoImagePlan, options: DemoImageOptions) {
  const started = Date.now()
  demoImagesWork = storeDemoScreens(plan, options).then(
    ({ rendered }) => {
      if (rendered) logEvent('info', 'demo_images_stored', { rendered, ms: Date.now() - started })
    },
    (error: unknown) => logEvent('error', 'demo_images_failed', { message: error instanceof Error ? error.message : String(error) }),
  )
}

/** The demo data; `images` are the listings' image URLs, in DEMO_LISTINGS order (planDemoImages). */
export async function seedDemoData(db: Kysely<DB>, now: Date, images: DemoListingImages[], github?: DemoGithub, stripe?: Stripe) {
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR)
  const users = [
    { ...DEMO_ADMIN, isAdmin: true, bio: 'Runs payouts and bank approvals.' },
    { ...DEMO_ADMIN_2, isAdmin: true, bio: 'Approves payout batches and changed bank details (the second pair of eyes).' },
    ...DEMO_SELLERS.map((s) => ({ email: s.email, username: s.username, displayName: s.displayName, bio: s.bio, isAdmin: false })),
    ...DEMO_BUYERS.map((b) => ({ ...b, isAdmin: false, bio: null })),
  ]
  await db
    .insertInto('users')
    .values(users.map((u, i) => ({ id: emailUserId(u.email), ...u, createdAt: at(24 * 60 - i) })))
    .execute()

  const sellerIds = DEMO_SELLERS.map((s) => emailUserId(s.email))
  const bankRows = DEMO_SELLERS.flatMap((seller, i) => {
    if (!seller.bank) return []
    const gb = i % 2 === 0
    const accountNumber = gb ? `3141592${i}` : ''
    const iban = gb ? '' : 'DE89370400440532013000'
    return [
      {
        userId: sellerIds[i]!,
        country: gb ? 'GB' : 'DE',
        accountHolder: seller.displayName,
        bankName: gb ? 'Monzo Bank' : 'Commerzbank',
        sortCode: gb ? '040004' : null,
        swift: gb ? null : 'COBADEFFXXX',
        accountNumberEncrypted: accountNumber ? encryptSecret(accountNumber) : null,
        accountNumberLast4: accountNumber ? accountNumber.slice(-4) : null,
        ibanEncrypted: iban ? encryptSecret(iban) : null,
        ibanLast4: iban ? iban.slice(-4) : null,
        status: seller.bank,
        requestedAt: at(24 * 30),
        approvedAt: seller.bank === 'approved' ? at(24 * 29) : null,
        rejectedAt: seller.bank === 'rejected' ? at(24 * 29) : null,
        rejectionReason: seller.bank === 'rejected' ? 'The account holder name does not match the account.' : null,
      },
    ]
  })
  if (bankRows.length) await db.insertInto('bankDetails').values(bankRows).execute()

  const listings = await db
    .insertInto('listings')
    .values(
      DEMO_LISTINGS.map((l, i) => ({
        id: demoListingId(slugify(l.title)),
        sellerId: sellerIds[l.seller]!,
        title: l.title,
        slug: slugify(l.title),
        shortDescription: l.short,
        longDescription: demoLongDescription(l),
        type: l.type,
        priceCents: l.price,
        licence: l.licence,
        languages: l.languages,
        frameworks: l.frameworks,
        dependencies: [...new Set(l.dependencies)],
        tags: l.tags,
        visible: !l.hidden,
        deliveryTimeframe: l.delivery ?? null,
        deliveryUrl: l.delivery === 'instant' ? `https://github.com/forkmarket-demo/${slugify(l.title)}` : null,
        setupCallAvailable: Boolean(l.setupCall),
        setupCallDetails: l.setupCall ? 'A 30-minute video call to walk through setup and deployment.' : null,
        emailSupportAvailable: Boolean(l.emailSupport),
        emailSupportDuration: l.emailSupport ?? null,
        bespokeDevelopmentAvailable: l.bespokeRate !== undefined,
        bespokeDevelopmentRateCents: l.bespokeRate ?? null,
        demoUrl: l.demo ? `https://demo.forkmarket.dev/${slugify(l.title)}` : null,
        // Rendered UI mockups (db/seed/demo-mockups.ts), stored like uploads: a storefront, not placeholders.
        thumbnailUrl: images[i]!.thumbnailUrl,
        screenshots: images[i]!.screenshots,
        createdAt: at(24 * 50 - i * 23),
        updatedAt: at(24 * 50 - i * 23),
      })),
    )
    .returning(['id', 'sellerId', 'priceCents', 'slug'])
    .execute()

  const buyerId = emailUserId(DEMO_BUYERS[0]!.email)
  const secondBuyerId = emailUserId(DEMO_BUYERS[1]!.email)
  const sale = (index: number, buyer: string, hoursAgo: number) => {
    const listing = listings[index]!
    return {
      id: demoSaleId(listing.slug, buyer),
      listingId: listing.id,
      sellerId: listing.sellerId,
      buyerId: buyer,
      stripePaymentIntentId: `${DEMO_INTENT_PREFIX}${listing.slug.slice(0, 20)}_${buyer.slice(0, 4)}`,
      ...pickFee(listing.priceCents),
      createdAt: at(hoursAgo),
      paidAtProvider: at(hoursAgo),
    }
  }
  // The buyer's own copy: under the buyer's account (issue 26.16: Jules's dispute showed the other buyer's fork).
  const fork = (slug: string, buyer: string) =>
    JSON.stringify({ forkUrl: `https://github.com/${DEMO_BUYERS.find((b) => emailUserId(b.email) === buyer)!.username}/${slug}` })
  await db
    .insertInto('transactions')
    .values([
      {
        ...sale(0, buyerId, 24 * 20),
        status: 'completed',
        deliveredAt: at(24 * 20),
        completedAt: at(24 * 17),
        deliveryProof: fork(listings[0]!.slug, buyerId),
        paymentReference: 'BACS-2026-1042',
        paidAt: at(24 * 14),
      },
      {
        ...sale(1, buyerId, 24 * 9),
        status: 'completed',
        deliveredAt: at(24 * 9),
        completedAt: at(24 * 8),
        deliveryProof: fork(listings[1]!.slug, buyerId),
      },
      { ...sale(2, buyerId, 30), status: 'delivered', deliveredAt: at(20), deliveryProof: fork(listings[2]!.slug, buyerId) },
      { ...sale(8, buyerId, 5), status: 'paid' },
      {
        ...sale(10, secondBuyerId, 24 * 4),
        status: 'disputed',
        deliveredAt: at(24 * 3),
        disputedAt: at(24 * 2),
        disputeReason: 'The booking page crashes on start; the fork is missing the migrations folder.',
        deliveryProof: fork(listings[10]!.slug, secondBuyerId),
      },
      { ...sale(16, secondBuyerId, 24 * 6), status: 'refunded', refundedAt: at(24 * 5), stripeRefundId: 're_demo_1' },
      {
        ...sale(5, secondBuyerId, 24 * 12),
        status: 'completed',
        deliveredAt: at(24 * 11),
        completedAt: at(24 * 8),
        deliveryProof: fork(listings[5]!.slug, secondBuyerId),
      },
    ])
    .execute()
  await seedDemoReviews(db, listings)
  // Issue 18: messages on the demo's sales, and the disputed sale's recorded history (its timeline).
  await seedDemoMessages(db, { listings, buyers: { buyer: buyerId, jules: secondBuyerId } })
  // Issue 19: the payout of the first sale as a reconciled batch (four eyes), and 30 days of listing views.
  const paidSale = await db
    .selectFrom('transactions')
    .select('id')
    .where('paymentReference', '=', 'BACS-2026-1042')
    .executeTakeFirstOrThrow()
  await seedDemoPayouts(db, now, {
    preparedBy: emailUserId(DEMO_ADMIN.email),
    approvedBy: emailUserId(DEMO_ADMIN_2.email),
    paidSaleId: paidSale.id,
    listingIds: listings.filter((l) => l.sellerId !== sellerIds[4]).map((l) => l.id),
  })
  if (github) {
    // Delivery through GitHub (issue 16): connected organizations and a purchase in each delivery state.
    await seedDemoGithub(db, now, github, {
      sellers: { ada: sellerIds[0]!, lin: sellerIds[1]!, noah: sellerIds[4]! },
      buyers: { buyer: buyerId, jules: secondBuyerId },
      listings,
    })
  }
  // Paid at the Stripe emulator when there is one, so the provider and the ledger agree.
  if (stripe) await payDemoSales(db, stripe)
  // Issue 19: the demo's sales and payout in the ledger, through the functions the app posts with.
  await backfillLedger(db)
  await sql`ANALYZE`.execute(db)
}

/** Issue 18: reviews of completed demo sales, and the listings' stored ratings (app/lib/ratings.ts). */
async function seedDemoReviews(db: Kysely<DB>, listings: { id: string }[]) {
  for (const review of DEMO_REVIEWS) {
    const listing = listings[review.listing]!
    const sale = await db
      .selectFrom('transactions')
      .select(['id', 'sellerId', 'completedAt'])
      .where('listingId', '=', listing.id)
      .where('buyerId', '=', emailUserId(review.buyer))
      .where('status', '=', 'completed')
      .executeTakeFirstOrThrow()
    const writtenAt = new Date(sale.completedAt!.getTime() + 24 * HOUR)
    await db
      .insertInto('reviews')
      .values({
        transactionId: sale.id,
        listingId: listing.id,
        buyerId: emailUserId(review.buyer),
        sellerId: sale.sellerId,
        stars: review.stars,
        body: review.body,
        sellerReply: review.reply ?? null,
        sellerRepliedAt: review.reply ? new Date(writtenAt.getTime() + 3 * HOUR) : null,
        createdAt: writtenAt,
        updatedAt: writtenAt,
      })
      .execute()
  }
  for (const listingId of new Set(DEMO_REVIEWS.map((r) => listings[r.listing]!.id))) {
    const totals = DEMO_REVIEWS.filter((r) => listings[r.listing]!.id === listingId)
    const summary = ratingSummary({ count: totals.length, sum: totals.reduce((sum, r) => sum + r.stars, 0) })
    await db
      .updateTable('listings')
      .set({ ratingCount: summary.count, ratingAverageTenths: summary.averageTenths, ratingScore: summary.score })
      .where('id', '=', listingId)
      .execute()
  }
}

function pickFee(priceCents: number) {
  const { amountCents, applicationFeeCents } = splitFee(priceCents)
  return { amountCents, applicationFeeCents }
}
