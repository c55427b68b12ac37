import { Clock, EyeOff, Flag, History, PackageCheck, Pencil, ShoppingCart } from 'lucide-react'
import * as React from 'react'
import { data, isRouteErrorResponse, Link } from 'react-router'
import { AccessRule, Changelog, LatestVersion } from '~/components/listing-detail/changelog'
import { DeliveryMethod } from '~/components/listing-detail/delivery-method'
import { DemoLink, ListingTabs, TechSummary } from '~/components/listing-detail/listing-details'
import { ListingMedia } from '~/components/listing-detail/listing-media'
import { ListingError, ListingNotFound } from '~/components/listing-detail/listing-not-found'
import { ReviewForm } from '~/components/reviews/deferred-review-forms'
import { RatingSummary } from '~/components/reviews/rating-stars'
import type { ReviewActionResult } from '~/components/reviews/review-forms'
import { ReviewCard, ReviewList, ReviewPager } from '~/components/reviews/review-list'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { Avatar, AvatarFallback, AvatarImage } from '~/components/ui/avatar'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { deferred } from '~/components/ui/deferred'
import { showToast } from '~/components/ui/toaster'
import { formatCents } from '~/lib/money'
import { isOneOf, LICENCE_LABELS, LICENCES, LISTING_TYPE_LABELS, LISTING_TYPES } from '~/lib/options'
import { purchaseHref } from '~/lib/purchase-links'
import { REPORT_REASON_LABELS } from '~/lib/report-reasons'
import { z } from '~/lib/zod'
import { checksView, latestListingChecks } from '~/server/domain/github-checks.server'
import { listingDeliveryMethod, toListingRepository } from '~/server/domain/github-listing-sources.server'
import { canViewListing, checkListingOwner, deleteListing, getListingBySlug, getListingPageBySlug } from '~/server/domain/listings.server'
import { takedownInForce } from '~/server/domain/moderation.server'
import { countListingViewLater, countsAsView } from '~/server/domain/seller-analytics.server'
import { listingReviewsAction, listingReviewsData } from '~/server/forms/review-actions.server'
import { getOptionalUser, requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import { logSecurityEvent } from '~/server/infra/log.server'
import type { Route } from './+types/listing'

// Anonymous readers share one copy for a few seconds (docs/decisions/023): the price and visibility they see
// are at most PUBLIC_PAGE_MAX_STALENESS_SECONDS old, and checkout reads the database again.
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.listingWrite, cache: 'public' })]

// What only the listing's seller sees (the bank-details notice, Delete Listing) loads for the seller alone.
const ownerTools = deferred(() => import('~/components/listing-detail/owner-tools'))
const BankAlert = ownerTools.component('BankAlert')
const DeleteListingButton = ownerTools.component('DeleteListingButton')
const DeleteConfirmation = ownerTools.component('DeleteConfirmation')

const ListingPageActionSchema = z.discriminatedUnion('intent', [z.object({ intent: z.literal('delete') })])
const REVIEW_INTENTS = new Set(['review', 'reply', 'hide-review'])

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // Who is asking first: a signed-in visitor's relation to the listing comes with the listing's read.
  const viewer = await getOptionalUser(context)
  const page = await getListingPageBySlug(params.slug, viewer?.id)
  // Hidden listings only for their seller; archived ones (sold, then deleted) for nobody.
  if (!page || !canViewListing(page.listing, viewer?.id)) throw data('Listing not found', { status: 404 })
  // Issue 30: its versions (GitHub releases or the seller's notes), newest first, came with it.
  const { listing, purchasable, versions } = page
  const isOwner = viewer?.id === listing.sellerId
  // Issue 19: an anonymous daily view counter (no IP, no user id); bots and the seller are not counted.
  // A signed-in visitor's page is private: counted here, in the instance's tally, not awaited. An anonymous page is
  // shared by a cache (decision 023) and its loader runs for few visitors: the browser reports the view.
  if (viewer && countsAsView(request, viewer.id, listing.sellerId)) countListingViewLater(listing.id)
  // The listing's source repository, rating, first reviews and the viewer's relation to it came with it (one read).
  const repository = toListingRepository(page.source)
  const [reviews, checks] = await Promise.all([
    listingReviewsData(listing.id, page.rating, viewer, new URL(request.url).searchParams.get('reviews'), {
      firstPage: page.reviews,
      relation: page.viewer,
    }),
    // Issue 30: the code host's checks of the listed commit, as last read.
    repository ? latestListingChecks(listing.id, repository.listedSha) : null,
  ])
  return {
    reviews,
    listing,
    isOwner,
    versions,
    // Issue 16: buyers see how the code reaches them; only the seller sees which repository it is.
    delivery: {
      verified: repository
        ? listingDeliveryMethod({ githubRepoId: repository.repoId, githubAccessLostAt: repository.accessLostAt }) === 'github'
        : false,
      ownerSource:
        isOwner && repository
          ? { fullName: repository.fullName, headSha: repository.listedSha, accessLost: repository.accessLostAt !== null }
          : null,
      checks: checksView(checks),
    },
    // Buy Now only when the seller can take payments (a dead end at checkout otherwise).
    purchasable,
    // Issue 26.8: a buyer who already owns it gets their purchase, not a Buy Now that checkout refuses.
    ownedPurchase: isOwner ? null : (page.viewer?.ownedPurchaseId ?? null),
    ownerBankStatus: isOwner ? page.sellerBankStatus : null,
    confirmDelete: isOwner && new URL(request.url).searchParams.has('delete'),
    reportView: !viewer,
    // Issue 30: the seller sees why their listing was taken down, and where to answer.
    takedown: isOwner ? ((await takedownInForce(listing.id)) ?? null) : null,
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  const form = await readFormBody(request, context)
  // Issue 18: posting a review, the seller's reply, an admin hiding a review.
  const intent = form.get('intent')
  if (typeof intent === 'string' && REVIEW_INTENTS.has(intent)) {
    const outcome = await listingReviewsAction(params.slug, user, form)
    if (outcome.kind === 'done') return redirectWithToast(`/listing/${params.slug}#reviews`, outcome.toast)
    return data(outcome.answer, { status: outcome.status })
  }
  const parsed = ListingPageActionSchema.safeParse(Object.fromEntries(form))
  if (!parsed.success) return data({ error: 'Unknown action' }, { status: 400 })
  const listing = await getListingBySlug(params.slug)
  const outcome = listing ? await checkListingOwner(listing.id, user.id) : 'not_found'
  if (!listing || outcome === 'not_found') throw data('Listing not found', { status: 404 })
  if (outcome === 'forbidden') {
    logSecurityEvent('forbidden', request, { userId: user.id, listingId: listing.id, reason: 'not the listing owner' })
    return data({ error: 'You can only delete your own listings' }, { status: 403 })
  }
  const result = await deleteListing(listing.id, user.id)
  if (result.outcome === 'not_found') throw data('Listing not found', { status: 404 })
  return redirectWithToast('/seller/dashboard', {
    title: 'Listing Deleted',
    description: 'Your listing has been deleted successfully.',
  })
}

function label<T extends readonly string[]>(list: T, labels: Record<T[number], string>, value: string) {
  return isOneOf(list, value) ? labels[value as T[number]] : value
}

export default function ListingPage({ loaderData, actionData }: Route.ComponentProps) {
  const {
    listing,
    isOwner,
    purchasable,
    ownedPurchase,
    ownerBankStatus,
    confirmDelete,
    delivery,
    reviews,
    reportView,
    takedown,
    versions,
  } = loaderData
  const seller = listing.seller
  const reviewResult = actionData && 'result' in actionData ? (actionData as ReviewActionResult) : null

  React.useEffect(() => {
    // Once per listing shown; a failure is not the visitor's concern.
    if (reportView) void fetch(`/api/listings/${listing.id}/views`, { method: 'POST', keepalive: true }).catch(() => undefined)
  }, [reportView, listing.id])

  React.useEffect(() => {
    if (actionData && 'error' in actionData && actionData.error) showToast({ type: 'error', title: 'Error', description: actionData.error })
  }, [actionData])

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-8">
      {isOwner && !purchasable ? <BankAlert kind="missing" bankStatus={ownerBankStatus} subject="listing" /> : null}
      {takedown ? (
        <Alert variant="destructive">
          <AlertTitle>Taken down by Forkmarket: {REPORT_REASON_LABELS[takedown.category]}</AlertTitle>
          <AlertDescription>
            <p className="[overflow-wrap:anywhere]">“{takedown.reason}”</p>
            <Link to={`/seller/takedowns/${takedown.id}`} className="font-medium underline underline-offset-4">
              {takedown.status === 'hidden' ? 'See the takedown and answer it' : 'See the takedown'}
            </Link>
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="grid gap-8 lg:grid-cols-3">
        <div className="grid min-w-0 content-start gap-6 lg:col-span-2">
          <ListingMedia title={listing.title} thumbnailUrl={listing.thumbnailUrl} screenshots={listing.screenshots} />
          <div className="grid gap-3">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant="secondary">{label(LISTING_TYPES, LISTING_TYPE_LABELS, listing.type)}</Badge>
              {isOwner && !listing.visible ? (
                <Badge variant="warning">
                  <EyeOff aria-hidden="true" />
                  Hidden
                </Badge>
              ) : null}
            </div>
            <h1 className="text-3xl font-bold tracking-tight text-balance">{listing.title}</h1>
            <p className="text-lg text-muted-foreground">{listing.shortDescription}</p>
            {/* Unreviewed, the Reviews section says so once (issue 26.16: "No reviews yet" stood here, above the list and in it). */}
            {reviews.rating.count > 0 ? (
              <a href="#reviews" className="w-fit rounded-sm">
                <RatingSummary average={reviews.rating.average} count={reviews.rating.count} />
              </a>
            ) : null}
            <TechSummary listing={listing} />
            {versions[0] ? <LatestVersion version={versions[0]} /> : null}
          </div>
          <ListingTabs listing={listing} />
          <Changelog versions={versions} />
          <section id="reviews" aria-labelledby="reviews-title" className="grid scroll-mt-20 gap-4">
            <div className="grid gap-1">
              <h2 id="reviews-title" className="text-2xl font-semibold tracking-tight">
                Reviews
              </h2>
              {reviews.rating.count > 0 ? <RatingSummary average={reviews.rating.average} count={reviews.rating.count} /> : null}
            </div>
            {reviews.reviewableSaleId ? (
              <div className="rounded-lg border p-4">
                <ReviewForm
                  saleId={reviews.reviewableSaleId}
                  lastResult={reviewResult?.intent === 'review' ? reviewResult.result : undefined}
                />
              </div>
            ) : null}
            {reviews.ownReview?.hidden ? (
              <div className="grid gap-2">
                <h3 className="text-sm font-medium">Your review</h3>
                <ReviewCard review={reviews.ownReview} canReply={false} canHide={false} />
              </div>
            ) : null}
            <ReviewList reviews={reviews.page.reviews} canReply={isOwner} canHide={reviews.isAdmin} actionResult={reviewResult} />
            <ReviewPager slug={listing.slug} nextCursor={reviews.page.nextCursor} paged={reviews.paged} />
            {reviews.hiddenReviews.length > 0 ? (
              <details className="grid gap-2">
                <summary className="cursor-pointer text-sm font-medium">
                  Hidden reviews ({reviews.hiddenReviews.length}, admins only)
                </summary>
                <ReviewList reviews={reviews.hiddenReviews} canReply={false} canHide={false} />
              </details>
            ) : null}
          </section>
        </div>

        <aside className="grid content-start gap-6" aria-label="Purchase">
          {confirmDelete ? <DeleteConfirmation title={listing.title} cancelTo={`/listing/${listing.slug}`} /> : null}
          <Card>
            <CardContent className="grid gap-5">
              <p className="text-3xl font-bold tracking-tight">{formatCents(listing.priceCents)}</p>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                <dt className="text-muted-foreground">Licence</dt>
                <dd className="font-medium">{label(LICENCES, LICENCE_LABELS, listing.licence)}</dd>
                <dt className="text-muted-foreground">Type</dt>
                <dd className="font-medium">{label(LISTING_TYPES, LISTING_TYPE_LABELS, listing.type)}</dd>
              </dl>
              {isOwner ? (
                <div className="grid gap-2">
                  <Button asChild className="w-full">
                    <Link to={`/seller/edit/${listing.id}`}>
                      <Pencil aria-hidden="true" />
                      Edit Listing
                    </Link>
                  </Button>
                  <Button asChild variant="outline" className="w-full">
                    <Link to={`/seller/edit/${listing.id}/versions`}>
                      <History aria-hidden="true" />
                      Versions
                    </Link>
                  </Button>
                  <DeleteListingButton title={listing.title} />
                </div>
              ) : ownedPurchase ? (
                <div className="grid gap-2 rounded-lg border border-success/50 bg-success/5 p-4 text-sm">
                  <p className="flex items-center gap-2 font-medium text-success">
                    <PackageCheck aria-hidden="true" className="size-4 shrink-0" />
                    You own this
                  </p>
                  <Link to={purchaseHref(ownedPurchase)} className="w-fit font-medium text-primary underline underline-offset-4">
                    View your purchase
                  </Link>
                </div>
              ) : purchasable ? (
                <Button asChild size="lg" className="w-full">
                  <Link to={`/checkout/${listing.id}`}>
                    <ShoppingCart aria-hidden="true" />
                    Buy Now
                  </Link>
                </Button>
              ) : (
                <div className="grid gap-1 rounded-lg border border-dashed p-4 text-sm">
                  <p className="flex items-center gap-2 font-medium">
                    <Clock aria-hidden="true" className="size-4" />
                    Not yet available to buy
                  </p>
                  <p className="text-muted-foreground">The seller is still setting up payments. Please check back soon.</p>
                </div>
              )}
              <DeliveryMethod verified={delivery.verified} ownerSource={delivery.ownerSource} checks={delivery.checks} />
              <AccessRule verified={delivery.verified} />
              {isOwner ? null : (
                <Link
                  to={`/report?targetType=listing&targetId=${listing.id}`}
                  className="flex w-fit items-center gap-1 text-sm text-muted-foreground underline underline-offset-4 hover:text-foreground"
                >
                  <Flag aria-hidden="true" className="size-4" />
                  Report this listing
                </Link>
              )}
              {listing.demoUrl ? <DemoLink url={listing.demoUrl} /> : null}
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle asChild>
                <h2>Seller</h2>
              </CardTitle>
            </CardHeader>
            <CardContent className="grid gap-3">
              <div className="flex items-center gap-3">
                <Avatar className="size-10">
                  {seller.avatarUrl ? <AvatarImage src={seller.avatarUrl} alt="" /> : null}
                  <AvatarFallback>{seller.displayName.slice(0, 1).toUpperCase()}</AvatarFallback>
                </Avatar>
                <div className="min-w-0">
                  <p className="font-medium">
                    <Link to={`/sellers/${seller.username}`} className="underline-offset-4 hover:underline">
                      {seller.displayName}
                    </Link>
                  </p>
                  <p className="text-sm text-muted-foreground">@{seller.username}</p>
                </div>
              </div>
              <Link to={`/sellers/${seller.username}`} className="text-sm font-medium underline underline-offset-4">
                View seller profile
              </Link>
              {seller.bio ? <p className="text-sm text-muted-foreground">{seller.bio}</p> : null}
            </CardContent>
          </Card>

          {listing.tags.length > 0 ? (
            <Card>
              <CardHeader>
                <CardTitle asChild>
                  <h2>Tags</h2>
                </CardTitle>
              </CardHeader>
              <CardContent>
                <ul className="flex flex-wrap gap-2" aria-label="Tags">
                  {listing.tags.map((tag) => (
                    <li key={tag}>
                      <Badge variant="secondary">{tag}</Badge>
                    </li>
                  ))}
                </ul>
              </CardContent>
            </Card>
          ) : null}
        </aside>
      </div>
    </div>
  )
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Listing not found · Forkmarket' }]
  return [{ title: `${loaderData.listing.title} · Forkmarket` }, { name: 'description', content: loaderData.listing.shortDescription }]
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <ListingNotFound />
  return <ListingError />
}
