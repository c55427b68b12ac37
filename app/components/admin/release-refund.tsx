import { Badge } from '~/components/ui/badge'
import { formatCents } from '~/lib/money'
import { ActionDialog } from './action-dialog'
import { RefundSchema, ReleaseSchema } from './admin-actions'
import { TimelineReleaseSchema } from './dispute-decision'

/** What the Release and Refund dialogs say about a sale: who gets how much. */
export interface DecidableSale {
  id: string
  amountCents: number
  buyerEmail: string
  sellerShareCents: number
  sellerEmail: string
  refundRequestedAt: string | Date | null
}

/** Refund a paid, held or disputed sale by card (the admin desk and a dispute's timeline). */
export function RefundAction({ sale }: { sale: Pick<DecidableSale, 'id' | 'amountCents' | 'buyerEmail'> }) {
  return (
    <ActionDialog
      intent="refund"
      target={{ name: 'transactionId', id: sale.id }}
      schema={RefundSchema}
      triggerLabel="Refund"
      triggerVariant="outline"
      title="Refund the buyer"
      description={
        <p>
          Refund {formatCents(sale.amountCents)} to {sale.buyerEmail} by card. The sale becomes refunded when the payment provider confirms,
          and the buyer loses access to the fork.
        </p>
      }
      field={{ name: 'reason', label: 'Reason', multiline: true }}
      submitLabel="Refund"
      submitVariant="destructive"
    />
  )
}

/**
 * A dispute's two outcomes, Release Funds or Refund, or the badge once a refund was requested.
 * `reasonRequired`: decided from the dispute's timeline, releasing needs a reason too (issue 18);
 * on the admin desk its note is optional.
 */
export function ReleaseOrRefund({ sale, reasonRequired = false }: { sale: DecidableSale; reasonRequired?: boolean }) {
  if (sale.refundRequestedAt) return <Badge variant="warning">Refund requested</Badge>
  return (
    <div className="flex flex-wrap gap-2">
      <ActionDialog
        intent="release"
        target={{ name: 'transactionId', id: sale.id }}
        schema={reasonRequired ? TimelineReleaseSchema : ReleaseSchema}
        triggerLabel="Release Funds"
        title="Release the funds to the seller"
        description={
          <p>
            The sale becomes completed and {formatCents(sale.sellerShareCents)} becomes due to {sale.sellerEmail}.
          </p>
        }
        field={{ name: 'reason', label: reasonRequired ? 'Reason' : 'Note (optional)', multiline: true }}
        submitLabel="Release Funds"
      />
      <RefundAction sale={sale} />
    </div>
  )
}
