import { ListingForm } from '~/components/listing-form/listing-form'
import { listingFormDefaults } from '~/lib/listing-schema'
import { requireUser } from '~/server/auth.server'
import { submitListingForm } from '~/server/listing-form.server'
import type { Route } from './+types/listing-create'

// /seller/create and /create-listing (two route ids, one module). Any signed-in user can sell.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context)
  return { defaults: listingFormDefaults() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  return submitListingForm(request, { sellerId: user.id })
}

export default function CreateListing({ loaderData, actionData }: Route.ComponentProps) {
  return <ListingForm mode="create" defaults={loaderData.defaults} actionData={actionData} />
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Create New Listing · Forkmarket' }]
}
