import { TriangleAlert } from 'lucide-react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import type { BankAccountDetails } from '~/lib/bank-details-schema'
import { formatDate } from '~/lib/format'
import { ActionDialog } from './action-dialog'
import { ApproveBankSchema, RejectBankSchema } from './admin-actions'
import { BankDetailsView } from './bank-details-view'

export interface PendingBankEntry {
  id: string
  email: string
  bankDetails: BankAccountDetails & {
    requestedAt: string | Date
    version: number
    /** Issue 19: a change of details approved before needs two different admins. */
    needsTwoApprovals?: boolean
    firstApprovedAt?: string | Date | null
  }
  /** Issue 26.5: other sellers whose approved details name the same account. */
  sharedAccountWith?: string[]
}

/** The approving admin's warning: this account already receives another seller's payouts. */
function SharedAccountWarning({ emails }: { emails: string[] }) {
  return (
    <p className="flex items-start gap-2 text-sm [overflow-wrap:anywhere]" data-shared-account>
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
      <span>
        This bank account is already approved for {emails.join(', ')}. Payouts to both would go to one account: check that it is this
        seller’s before approving.
      </span>
    </p>
  )
}

/** Bank details waiting for a decision, oldest request first, each with Approve and Reject. */
export function PendingBankDetails({ entries }: { entries: PendingBankEntry[] }) {
  if (entries.length === 0) {
    return <p className="py-10 text-center text-sm text-muted-foreground">No bank details are waiting for approval</p>
  }
  return (
    <ul className="grid gap-4 md:grid-cols-2" aria-label="Pending bank details">
      {entries.map((entry) => (
        <li key={entry.id}>
          <Card className="gap-4" aria-label={`Bank details of ${entry.email}`} role="group">
            <CardHeader>
              <CardTitle asChild className="text-base">
                <h3>{entry.email}</h3>
              </CardTitle>
              <CardDescription>Submitted {formatDate(entry.bankDetails.requestedAt)}</CardDescription>
              {entry.bankDetails.needsTwoApprovals ? (
                <p className="text-sm">
                  {entry.bankDetails.firstApprovedAt
                    ? `Changed details: first approved ${formatDate(entry.bankDetails.firstApprovedAt)}; a different admin gives the second approval.`
                    : 'Changed details: two different admins must approve them.'}
                </p>
              ) : null}
              {entry.sharedAccountWith?.length ? <SharedAccountWarning emails={entry.sharedAccountWith} /> : null}
            </CardHeader>
            <CardContent className="grid gap-4">
              <BankDetailsView details={entry.bankDetails} />
              <div className="flex flex-wrap gap-2">
                <ActionDialog
                  intent="approve-bank"
                  target={{ name: 'userId', id: entry.id }}
                  hidden={{ version: String(entry.bankDetails.version) }}
                  schema={ApproveBankSchema}
                  triggerLabel="Approve"
                  title="Approve bank details"
                  description={
                    <>
                      <p>Payouts to {entry.email} will go to this account. Check it against the seller’s name first.</p>
                      {entry.sharedAccountWith?.length ? <SharedAccountWarning emails={entry.sharedAccountWith} /> : null}
                    </>
                  }
                  details={<BankDetailsView details={entry.bankDetails} />}
                  submitLabel="Approve"
                />
                <ActionDialog
                  intent="reject-bank"
                  target={{ name: 'userId', id: entry.id }}
                  hidden={{ version: String(entry.bankDetails.version) }}
                  schema={RejectBankSchema}
                  triggerLabel="Reject"
                  triggerVariant="outline"
                  title="Reject bank details"
                  description={<p>{entry.email} will see your reason on their profile and can update and resubmit.</p>}
                  field={{ name: 'reason', label: 'Rejection reason', multiline: true }}
                  submitLabel="Reject"
                  submitVariant="destructive"
                />
              </div>
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  )
}
