import { CircleAlert, CircleCheck, Clock, Landmark } from 'lucide-react'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { formatDate } from '~/lib/format'

export interface BankStatusBannerProps {
  status: 'pending' | 'approved' | 'rejected' | null
  approvedAt?: string | Date | null
  rejectionReason?: string | null
}

const REAPPROVAL = 'Editing approved details requires admin approval again; approval takes 1-2 business days.'

/** The bank details state (spec §4): absent, pending, approved or rejected with the admin's reason. */
export function BankStatusBanner({ status, approvedAt, rejectionReason }: BankStatusBannerProps) {
  if (status === 'pending') {
    return (
      <Alert variant="warning">
        <Clock aria-hidden="true" />
        <AlertTitle>Bank details pending approval</AlertTitle>
        <AlertDescription>
          <p>An admin is reviewing your details. Approval takes 1-2 business days; payouts start once they are approved.</p>
          <p>{REAPPROVAL}</p>
        </AlertDescription>
      </Alert>
    )
  }
  if (status === 'approved') {
    return (
      <Alert variant="success">
        <CircleCheck aria-hidden="true" />
        <AlertTitle>Bank details approved</AlertTitle>
        <AlertDescription>
          <p>{approvedAt ? `Approved on ${formatDate(approvedAt)}. ` : null}Your payouts are sent to this account by bank transfer.</p>
          <p>{REAPPROVAL}</p>
        </AlertDescription>
      </Alert>
    )
  }
  if (status === 'rejected') {
    return (
      <Alert variant="destructive">
        <CircleAlert aria-hidden="true" />
        <AlertTitle>Bank details rejected</AlertTitle>
        <AlertDescription>
          <p>
            <span className="font-medium text-foreground">Reason:</span> {rejectionReason}
          </p>
          <p>Please update and resubmit your details below. Approval takes 1-2 business days.</p>
        </AlertDescription>
      </Alert>
    )
  }
  return (
    <Alert>
      <Landmark aria-hidden="true" />
      <AlertTitle>Add bank details to receive payouts</AlertTitle>
      <AlertDescription>
        <p>Payouts are sent by bank transfer once an admin approves your details; approval takes 1-2 business days.</p>
        <p>Once approved, editing your details requires admin approval again.</p>
      </AlertDescription>
    </Alert>
  )
}
