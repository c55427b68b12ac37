import { Clock, Landmark } from 'lucide-react'
import { Link } from 'react-router'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'

/**
 * Spec §9: shown when the seller has at least one sale waiting for a payout
 * and their bank details are not approved.
 */
export function BankAlert({ kind, rejected = false }: { kind: 'pending' | 'missing'; rejected?: boolean }) {
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
  return (
    <Alert variant="warning">
      <Landmark aria-hidden="true" />
      <AlertTitle>Add bank details to receive payouts</AlertTitle>
      <AlertDescription>
        <p>
          {rejected
            ? 'Your bank details were rejected. Update and resubmit them on your profile so we can send your payouts.'
            : 'You have sales waiting for a payout. Add your bank details so we can send them by bank transfer.'}
        </p>
        <Button asChild size="sm" variant="outline" className="mt-2">
          <Link to="/profile">Add Bank Details</Link>
        </Button>
      </AlertDescription>
    </Alert>
  )
}
