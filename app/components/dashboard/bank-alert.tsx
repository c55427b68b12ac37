import { Clock, Landmark } from 'lucide-react'
import { Link } from 'react-router'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import type { BankDetailsStatus } from '../../../db/schema.ts'

/** What the seller's notice talks about: their listings (dashboard), one listing, or the one being created. */
export type BankAlertSubject = 'listings' | 'listing' | 'new-listing'

const CANNOT_BUY: Record<BankAlertSubject, string> = {
  listings: 'Buyers can’t purchase your listings',
  listing: 'Buyers can’t purchase this listing',
  'new-listing': 'Your listing won’t be purchasable',
}

/**
 * The seller's bank-details notice (spec "Seller dashboard" alert titles).
 * `missing`: no bank details, or rejected ones — the seller cannot take
 * payments (`sellerCanTakePayments`), so their listings cannot be bought, and
 * nothing can be paid out. `pending`: sales wait for the admin's approval.
 */
export function BankAlert({
  kind,
  bankStatus = null,
  subject = 'listings',
  pendingSales = false,
}: {
  kind: 'pending' | 'missing'
  bankStatus?: BankDetailsStatus | null
  subject?: BankAlertSubject
  /** Sales are waiting for a payout (spec §9's reason for the alert). */
  pendingSales?: boolean
}) {
  if (kind === 'pending') {
    return (
      <Alert variant="warning">
        <Clock aria-hidden="true" />
        <AlertTitle>Bank details pending approval</AlertTitle>
        <AlertDescription>
          <p>Your payouts will be sent once an admin approves your bank details (1-2 business days).</p>
        </AlertDescription>
      </Alert>
    )
  }
  const rejected = bankStatus === 'rejected'
  return (
    <Alert variant="warning">
      <Landmark aria-hidden="true" />
      <AlertTitle>Add bank details to receive payouts</AlertTitle>
      <AlertDescription>
        <p>
          {rejected
            ? `Your bank details were rejected. ${CANNOT_BUY[subject]} until you update and resubmit them on your profile.`
            : `${CANNOT_BUY[subject]} until you add your bank details on your profile.`}
          {pendingSales ? ' You also have sales waiting for a payout by bank transfer.' : null}
        </p>
        <Button asChild size="sm" variant="outline" className="mt-2">
          <Link to="/profile">{rejected ? 'Update Bank Details' : 'Add Bank Details'}</Link>
        </Button>
      </AlertDescription>
    </Alert>
  )
}
