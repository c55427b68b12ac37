import { describe, expect, it } from 'vitest'
import { purchaseHref } from '../../app/lib/purchase-schema.ts'
import * as listingPage from '../../app/routes/listing.tsx'
import { APP, callRoute } from '../support/call-route.ts'
import { insertSale, sellerWithListing, signUp } from '../support/payment-fixtures.ts'

/*
 * Issue 26.8: the listing page of a listing the viewer already owns shows "You own this" and a link to
 * the purchase, not a Buy Now that ends at checkout's "You can't buy this listing". Its seller sees
 * Edit Listing (isOwner); a refunded purchase is no longer owned, so Buy Now comes back.
 */
const get = (path: string, token?: string) => new Request(`${APP}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} })

async function pageFor(slug: string, token?: string) {
  const response = await callRoute(listingPage, get(`/listing/${slug}`, token), { slug })
  expect(response.status).toBe(200)
  return response.json() as Promise<{ isOwner: boolean; purchasable: boolean; ownedPurchase: string | null }>
}

describe('listing page: what a buyer who owns the listing sees', () => {
  it('names the purchase of a buyer who owns it; not for others, the seller or after a refund', async () => {
    const { seller, listing } = await sellerWithListing()
    const buyer = await signUp('owner-buyer')
    const other = await signUp('other-buyer')
    const sale = await insertSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, status: 'delivered' })

    expect(await pageFor(listing.slug, buyer.token)).toMatchObject({ isOwner: false, purchasable: true, ownedPurchase: sale.id })
    expect(purchaseHref(sale.id)).toBe(`/purchases#purchase-${sale.id}`)
    expect(await pageFor(listing.slug, other.token)).toMatchObject({ ownedPurchase: null, purchasable: true })
    expect(await pageFor(listing.slug)).toMatchObject({ ownedPurchase: null })
    expect(await pageFor(listing.slug, seller.token)).toMatchObject({ isOwner: true, ownedPurchase: null })

    const refunded = await signUp('refunded-buyer')
    await insertSale({ listingId: listing.id, sellerId: seller.id, buyerId: refunded.id, status: 'refunded' })
    expect(await pageFor(listing.slug, refunded.token)).toMatchObject({ ownedPurchase: null })
  })
})
