import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { DISPUTE_WINDOW_HOURS } from '~/lib/escrow'
import { formatCents, PLATFORM_FEE_RATE, type FeeSplit } from '~/lib/money'

export interface OrderSummaryProps {
  title: string
  sellerUsername: string
  fee: FeeSplit
}

/**
 * Spec "Checkout": title, seller username, price, platform fee 15 %, seller
 * receives, total. The figures are one valid definition list (each row a
 * <div> holding one <dt> and its <dd>); the title and seller are plain text
 * above it, and long titles wrap instead of widening the page.
 */
export function OrderSummary({ title, sellerUsername, fee }: OrderSummaryProps) {
  const rate = Math.round(PLATFORM_FEE_RATE * 100)
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle asChild>
          <h2>Order Summary</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid min-w-0 gap-1">
          <p className="text-base font-medium">{title}</p>
          <p className="text-sm text-muted-foreground">by @{sellerUsername}</p>
        </div>
        <dl className="grid gap-3 border-t pt-4 text-sm">
          <Row label="Price" value={formatCents(fee.amountCents)} />
          <Row label={`Platform fee (${rate}%)`} value={formatCents(fee.applicationFeeCents)} muted />
          <Row label="Seller receives" value={formatCents(fee.sellerShareCents)} muted />
          <Row label="Total" value={formatCents(fee.amountCents)} strong className="border-t pt-3" />
        </dl>
        <p className="text-xs text-muted-foreground">
          You pay the price; the platform fee comes out of the seller&apos;s share. Your payment is held in escrow until you confirm
          delivery (or {DISPUTE_WINDOW_HOURS} hours after delivery).
        </p>
      </CardContent>
    </Card>
  )
}

function Row({
  label,
  value,
  muted,
  strong,
  className,
}: {
  label: string
  value: string
  muted?: boolean
  strong?: boolean
  className?: string
}) {
  return (
    <div className={cn('flex items-center justify-between gap-4', className)}>
      <dt className={muted ? 'text-muted-foreground' : strong ? 'font-semibold' : undefined}>{label}</dt>
      <dd className={cn('tabular-nums', strong ? 'text-base font-semibold' : muted ? 'text-muted-foreground' : undefined)}>{value}</dd>
    </div>
  )
}
