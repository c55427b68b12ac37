import { data, isRouteErrorResponse } from 'react-router'
import { ListingError, ListingNotFound, NotYourListing } from '~/components/listing-detail/listing-not-found'
import { ListingForm } from '~/components/listing-form/listing-form'
import { listingFormDefaults } from '~/lib/listing-schema'
import { checkListingOwner, getOwnedListing } from '~/server/domain/listings.server'
import { listingFormSource, submitListingForm } from '~/server/forms/listing-form.server'
import { requireUser } from '~/server/http/auth.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import { logSecurityEvent } from '~/server/infra/log.server'
import type { Route } from './+types/listing-edit'

export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.upload, rateLimit: RATE_LIMITS.listingWrite })]

// /seller/edit/:id: only the listing's seller (checkListingOwner, the rule every surface uses):
// 403 for someone else's visible listing, 404 for a missing, archived or someone else's hidden one.
async function requireOwnListing({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const user = await requireUser(request, context)
  const outcome = await checkListingOwner(params.id, user.id)
  if (outcome === 'forbidden') {
    logSecurityEvent('forbidden', request, { userId: user.id, listingId: params.id, reason: 'not the listing owner' })
    throw data('You can only edit your own listings', { status: 403 })
  }
  const listing = outcome === 'ok' ? await getOwnedListing(params.id, user.id) : undefined
  if (!listing) throw data('Listing not found', { status: 404 })
  return { user, listing }
}

export async function loader(args: Route.LoaderArgs) {
  const { user, listing } = await requireOwnListing(args)
  const source = await listingFormSource(user.id, listing.id)
  return { title: listing.title, defaults: { ...listingFormDefaults(listing), githubRepoId: source.selected }, source }
}

export async function action(args: Route.ActionArgs) {
  const { user, listing } = await requireOwnListing(args)
  return submitListingForm(args.request, args.context, { sellerId: user.id, listingId: listing.id })
}

export default function EditListing({ loaderData, actionData }: Route.ComponentProps) {
  return <ListingForm mode="edit" defaults={loaderData.defaults} actionData={actionData} source={loaderData.source} />
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? 'Edit Listing · Forkmarket' : 'Listing not found · Forkmarket' }]
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <ListingNotFound />
  if (isRouteErrorResponse(error) && error.status === 403) return <NotYourListing />
  return <ListingError />
}
