import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import * as uploadsRoute from '../../app/routes/uploads.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { DEMO_LISTINGS } from '../../db/seed/demo-data.ts'
import { planDemoImages } from '../../db/seed/demo-images.ts'
import { demoImagesStored, seedDemoDataOnce } from '../../db/seed/demo.ts'
import { APP, callRoute } from '../support/call-route.ts'
import { s3Emulator } from '../support/services.ts'
import { storedFiles, useTemporaryUploads } from './listings-support.ts'

// Issue 14.16: the demo marketplace opens with real-looking images (rendered
// UI mockups stored like uploads), not the same placeholder on every card.

let uploads: string

beforeAll(() => {
  uploads = useTemporaryUploads()
})

async function served(url: string) {
  const key = url.slice('/uploads/'.length)
  const response = await callRoute(uploadsRoute, new Request(`${APP}${url}`), { '*': key })
  expect(response.status, url).toBe(200)
  expect(response.headers.get('Content-Type')).toBe('image/webp')
  const bytes = Buffer.from(await response.arrayBuffer())
  return { bytes, meta: await sharp(bytes).metadata() }
}

const card = (url: string) => url.replace(/full\.webp$/, 'card.webp')

describe('demo images', () => {
  it('every demo listing gets its own thumbnail and screenshots, stored and served like uploads', { timeout: 180_000 }, async () => {
    expect(await seedDemoDataOnce(db)).toBe(true)
    const listings = await db
      .selectFrom('listings')
      .select(['slug', 'thumbnailUrl', 'screenshots', 'visible'])
      .orderBy('createdAt')
      .execute()
    expect(listings).toHaveLength(DEMO_LISTINGS.length)

    // The marketplace cards are ready as soon as the demo data is: no placeholder on the first look.
    for (const listing of listings) {
      expect(listing.thumbnailUrl, listing.slug).toMatch(/^\/uploads\/[a-f0-9]{32}\/full\.webp$/)
      expect(listing.screenshots[0]).toBe(listing.thumbnailUrl)
      expect(listing.screenshots).toHaveLength(3)
      const { meta } = await served(card(listing.thumbnailUrl!))
      expect(meta).toMatchObject({ format: 'webp', width: 640, height: 400 })
    }
    const thumbnails = new Set(listings.map((l) => l.thumbnailUrl))
    expect(thumbnails.size).toBe(listings.length)

    // The rest arrives in the background; then every screenshot has both renditions.
    await demoImagesStored()
    const cardBytes = new Set<string>()
    for (const listing of listings) {
      for (const url of listing.screenshots) {
        expect((await served(url)).meta, url).toMatchObject({ format: 'webp', width: 1600, height: 1000 })
        const small = await served(card(url))
        expect(small.meta).toMatchObject({ width: 640, height: 400 })
        cardBytes.add(small.bytes.toString('base64'))
      }
    }
    // No two screens are the same picture.
    expect(cardBytes.size).toBe(listings.length * 3)
    expect(storedFiles(uploads)).toHaveLength(listings.length * 3 * 2)
  })

  it('is deterministic: the same demo data always has the same image URLs', () => {
    expect(planDemoImages()).toEqual(planDemoImages())
    expect(planDemoImages().images.map((i) => i.thumbnailUrl)).toEqual(planDemoImages(DEMO_LISTINGS).images.map((i) => i.thumbnailUrl))
  })

  it('a later start stores what an interrupted first start left out', { timeout: 180_000 }, async () => {
    expect(await seedDemoDataOnce(db)).toBe(true)
    await demoImagesStored()
    const listing = await db.selectFrom('listings').select(['screenshots']).orderBy('createdAt').executeTakeFirstOrThrow()
    const lost = listing.screenshots[2]!
    await s3Emulator.store.delete(uploads, lost.slice('/uploads/'.length))
    expect(await seedDemoDataOnce(db)).toBe(false)
    await demoImagesStored()
    expect((await served(lost)).meta).toMatchObject({ width: 1600, height: 1000 })
  })
})

describe('demo sales', () => {
  it(
    "every delivered demo sale's fork is under its own buyer's account (issue 26.16: Jules's dispute showed another buyer's fork)",
    { timeout: 180_000 },
    async () => {
      expect(await seedDemoDataOnce(db)).toBe(true)
      const sales = await db
        .selectFrom('transactions')
        .innerJoin('users as buyer', 'buyer.id', 'transactions.buyerId')
        .innerJoin('listings', 'listings.id', 'transactions.listingId')
        .select(['listings.title', 'transactions.deliveryProof', 'buyer.username', 'buyer.githubLogin'])
        .execute()
      const forks = sales.filter((sale) => sale.deliveryProof?.forkUrl)
      expect(forks.length).toBeGreaterThan(3)
      for (const sale of forks) {
        const owner = new URL(sale.deliveryProof!.forkUrl!).pathname.split('/')[1]
        expect([sale.username, sale.githubLogin], `${sale.title}: ${sale.deliveryProof!.forkUrl}`).toContain(owner)
      }
      // The disputed demo sale's delivery (what its timeline shows) names the same fork.
      const dispute = await db
        .selectFrom('transactions')
        .innerJoin('listings', 'listings.id', 'transactions.listingId')
        .select(['transactions.id', 'transactions.deliveryProof'])
        .where('listings.title', '=', 'Restaurant Ordering Site')
        .where('transactions.status', '=', 'disputed')
        .executeTakeFirstOrThrow()
      expect(dispute.deliveryProof?.forkUrl).toBe('https://github.com/jules/restaurant-ordering-site')
      const delivered = await db
        .selectFrom('auditLog')
        .select('metadata')
        .where('entityId', '=', dispute.id)
        .where('action', '=', 'deliver')
        .executeTakeFirstOrThrow()
      expect(delivered.metadata).toMatchObject({ forkUrl: 'https://github.com/jules/restaurant-ordering-site' })
    },
  )
})
