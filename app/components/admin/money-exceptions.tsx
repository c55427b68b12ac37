import { TriangleAlert } from 'lucide-react'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { statusLabel } from '~/lib/escrow'
import { formatCents } from '~/lib/money'
import type { MoneyException } from '~/server/domain/money-exceptions.server'
import type { TransactionStatus } from '../../../db/schema.ts'

/** An open money exception as the loader sends it (dates may arrive serialised). */
export type MoneyExceptionRow = Omit<MoneyException, 'createdAt'> & { createdAt: string | Date }

const KIND_TITLES: Record<MoneyExceptionRow['kind'], string> = {
  payment_mismatch: 'Payment held: amount or currency differs from the sale',
  refund_after_payout: 'Refunded at the payment provider after the seller was paid out',
}

/** Issue 14.4/14.9: money that needs a person, shown on every admin tab until resolved. */
export function MoneyExceptions({ exceptions }: { exceptions: MoneyExceptionRow[] }) {
  if (exceptions.length === 0) return null
  return (
    <Alert variant="destructive" aria-labelledby="money-exceptions-title">
      <TriangleAlert aria-hidden="true" />
      <AlertTitle id="money-exceptions-title">
        {exceptions.length === 1 ? '1 money exception needs attention' : `${exceptions.length} money exceptions need attention`}
      </AlertTitle>
      <AlertDescription>
        <ul className="mt-2 grid gap-3">
          {exceptions.map((e) => (
            <li key={e.id} className="grid gap-0.5 break-words">
              <span className="font-medium">{KIND_TITLES[e.kind]}</span>
              <span>
                “{e.listingTitle}” — sale {formatCents(e.saleAmountCents)} ({statusLabel(e.saleStatus as TransactionStatus)}),{' '}
                {e.kind === 'payment_mismatch' ? 'received' : 'refunded'} {e.amountCents} {e.currency} (cents). Buyer {e.buyerEmail}, seller{' '}
                {e.sellerEmail}.
              </span>
              <span className="text-xs">
                {e.details} · sale {e.transactionId} · {new Date(e.createdAt).toISOString().slice(0, 16).replace('T', ' ')} UTC
              </span>
            </li>
          ))}
        </ul>
      </AlertDescription>
    </Alert>
  )
}
