import { data, isRouteErrorResponse } from 'react-router'
import { ListingError, ListingNotFound } from '~/components/listing-detail/listing-not-found'
import { ListingForm } from '~/components/listing-form/listing-form'
import { listingFormDefaults } from '~/lib/listing-schema'
import { requireUser } from '~/server/auth.server'
import { submitListingForm } from '~/server/listing-form.server'
import { getOwnedListing } from '~/server/listings.server'
import type { Route } from './+types/listing-edit'

// /seller/edit/:id: only the listing's seller; anyone else gets the same 404
// as for a missing listing (no hint that the id exists).
async function requireOwnListing({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const user = await requireUser(request, context)
  const listing = await getOwnedListing(params.id, user.id)
  if (!listing) throw data('Listing not found', { status: 404 })
  return { user, listing }
}

export async function loader(args: Route.LoaderArgs) {
  const { listing } = await requireOwnListing(args)
  return { title: listing.title, defaults: listingFormDefaults(listing) }
}

export async function action(args: Route.ActionArgs) {
  const { user, listing } = await requireOwnListing(args)
  return submitListingForm(args.request, { sellerId: user.id, listingId: listing.id })
}

export default function EditListing({ loaderData, actionData }: Route.ComponentProps) {
  return <ListingForm mode="edit" defaults={loaderData.defaults} actionData={actionData} />
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? 'Edit Listing · Forkmarket' : 'Listing not found · Forkmarket' }]
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <ListingNotFound />
  return <ListingError />
}
