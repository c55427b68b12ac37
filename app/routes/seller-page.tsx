import { BadgeCheck, Building2, CalendarDays, PackageCheck } from 'lucide-react'
import { data, isRouteErrorResponse, Link } from 'react-router'
import { ListingCard, toListingCardData } from '~/components/listing-card'
import { RatingSummary } from '~/components/reviews/rating-stars'
import { ReviewCard } from '~/components/reviews/review-list'
import { Avatar, AvatarFallback, AvatarImage } from '~/components/ui/avatar'
import { formatDate } from '~/lib/format'
import { imageVariant } from '~/lib/images'
import { getSellerPage } from '~/server/domain/seller-profiles.server'
import type { Route } from './+types/seller-page'

// Issue 18: a seller's public page. Anyone may read it; nothing here changes state.
export async function loader({ params }: Route.LoaderArgs) {
  const seller = await getSellerPage(params.username)
  if (!seller) throw data('Seller not found', { status: 404 })
  // The cards' words ("Updated 3 days ago") are made here, as the marketplace's are: the same text on the server and after hydration.
  return { seller, cards: seller.listings.map((listing) => toListingCardData({ ...listing, seller: null })) }
}

export default function SellerPage({ loaderData }: Route.ComponentProps) {
  const { seller, cards } = loaderData
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-8">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-start">
        <Avatar className="size-20">
          {seller.avatarUrl ? <AvatarImage src={imageVariant(seller.avatarUrl, 'card')} alt="" className="object-cover" /> : null}
          <AvatarFallback className="text-2xl">{seller.displayName.slice(0, 1).toUpperCase()}</AvatarFallback>
        </Avatar>
        <div className="grid min-w-0 gap-2">
          <h1 className="text-3xl font-bold tracking-tight">{seller.displayName}</h1>
          <p className="text-sm text-muted-foreground">@{seller.username}</p>
          <RatingSummary average={seller.rating.average} count={seller.rating.count} />
          {seller.bio ? <p className="max-w-prose text-sm whitespace-pre-line">{seller.bio}</p> : null}
          <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <div className="flex items-center gap-2">
              <CalendarDays aria-hidden="true" className="size-4 text-muted-foreground" />
              <dt className="text-muted-foreground">Member since</dt>
              <dd className="font-medium">{formatDate(seller.memberSince)}</dd>
            </div>
            <div className="flex items-center gap-2">
              <PackageCheck aria-hidden="true" className="size-4 text-muted-foreground" />
              <dt className="text-muted-foreground">Completed sales</dt>
              <dd className="font-medium tabular-nums">{seller.completedSales}</dd>
            </div>
            {seller.githubOrganizations.length > 0 ? (
              <div className="flex items-center gap-2">
                <Building2 aria-hidden="true" className="size-4 text-muted-foreground" />
                <dt className="text-muted-foreground">Verified GitHub organization</dt>
                <dd className="flex flex-wrap items-center gap-2 font-medium">
                  {seller.githubOrganizations.map((login) => (
                    <span key={login} className="inline-flex items-center gap-1">
                      <BadgeCheck aria-hidden="true" className="size-4 text-emerald-700 dark:text-emerald-400" />
                      {login}
                    </span>
                  ))}
                </dd>
              </div>
            ) : null}
          </dl>
          <Link
            to={`/report?targetType=user&targetId=${seller.id}`}
            className="w-fit text-sm text-muted-foreground underline underline-offset-4 hover:text-foreground"
          >
            Report this seller
          </Link>
        </div>
      </header>

      <section aria-labelledby="seller-listings-title" className="@container grid gap-4">
        <h2 id="seller-listings-title" className="text-xl font-semibold tracking-tight">
          Listings by {seller.displayName}
        </h2>
        {seller.listings.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No listings for sale right now. <Link to="/marketplace">Browse the marketplace</Link>.
          </p>
        ) : (
          <ul className="grid gap-5 @xl:grid-cols-2 @4xl:grid-cols-3" aria-label="Listings">
            {cards.map((card, index) => (
              <li key={card.id} className="flex *:flex-1">
                <ListingCard listing={card} eager={index < 3} />
              </li>
            ))}
          </ul>
        )}
      </section>

      {seller.recentReviews.length > 0 ? (
        <section aria-labelledby="seller-reviews-title" className="grid gap-4">
          <h2 id="seller-reviews-title" className="text-xl font-semibold tracking-tight">
            Recent reviews
          </h2>
          <ul className="grid gap-4 lg:grid-cols-2" aria-label="Recent reviews">
            {seller.recentReviews.map((review) => (
              <li key={review.id} className="grid gap-1">
                <p className="text-sm text-muted-foreground">
                  On{' '}
                  <Link to={`/listing/${review.listing.slug}#reviews`} className="font-medium text-foreground underline underline-offset-4">
                    {review.listing.title}
                  </Link>
                </p>
                <ReviewCard review={review} canReply={false} canHide={false} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  )
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Seller not found · Forkmarket' }]
  const { seller } = loaderData
  return [
    { title: `${seller.displayName} (@${seller.username}) · Forkmarket` },
    { name: 'description', content: seller.bio?.slice(0, 160) || `Listings by ${seller.displayName} on Forkmarket` },
  ]
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <div className="mx-auto grid max-w-xl gap-4 px-4 py-20 text-center">
      <h1 className="text-2xl font-bold tracking-tight">{notFound ? 'Seller not found' : 'Something went wrong'}</h1>
      <p className="text-muted-foreground">
        {notFound ? 'There is no seller with this username. It may have changed.' : 'Please try again in a moment.'}
      </p>
      <p>
        <Link to="/marketplace" className="font-medium underline underline-offset-4">
          Browse the marketplace
        </Link>
      </p>
    </div>
  )
}
