import { BankAlert } from '~/components/dashboard/bank-alert'
import { ListingForm } from '~/components/listing-form/listing-form'
import { listingFormDefaults } from '~/lib/listing-schema'
import { sellerCanTakePayments } from '~/lib/seller-eligibility'
import { getBankDetailsStatus } from '~/server/domain/bank-details.server'
import { listingFormSource, submitListingForm } from '~/server/forms/listing-form.server'
import { requireUser } from '~/server/http/auth.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/listing-create'

export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.upload, rateLimit: RATE_LIMITS.listingWrite })]

// /seller/create and /create-listing (two route ids, one module). Any signed-in user can sell.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const [bankStatus, source] = await Promise.all([getBankDetailsStatus(user.id), listingFormSource(user.id)])
  return { defaults: listingFormDefaults(), bankStatus, source }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  return submitListingForm(request, context, { sellerId: user.id })
}

export default function CreateListing({ loaderData, actionData }: Route.ComponentProps) {
  const { bankStatus } = loaderData
  return (
    <>
      {sellerCanTakePayments(bankStatus) ? null : (
        <div className="mx-auto w-full max-w-3xl px-4 pt-8">
          <BankAlert kind="missing" bankStatus={bankStatus} subject="new-listing" />
        </div>
      )}
      <ListingForm mode="create" defaults={loaderData.defaults} actionData={actionData} source={loaderData.source} />
    </>
  )
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Create New Listing · Forkmarket' }]
}
