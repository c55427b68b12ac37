import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { Separator } from '~/components/ui/separator'
import { formatCents, PLATFORM_FEE_RATE, type FeeSplit } from '~/lib/money'

export interface OrderSummaryProps {
  title: string
  sellerUsername: string
  fee: FeeSplit
}

/** Spec "Checkout": title, seller username, price, platform fee 15 %, seller receives, total. */
export function OrderSummary({ title, sellerUsername, fee }: OrderSummaryProps) {
  const rate = Math.round(PLATFORM_FEE_RATE * 100)
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Order Summary</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 text-sm">
          <div className="grid gap-1">
            <dt className="sr-only">Listing</dt>
            <dd className="text-base font-medium">{title}</dd>
            <dt className="sr-only">Seller</dt>
            <dd className="text-muted-foreground">by @{sellerUsername}</dd>
          </div>
          <Separator />
          <Row label="Price" value={formatCents(fee.amountCents)} />
          <Row label={`Platform fee (${rate}%)`} value={formatCents(fee.applicationFeeCents)} muted />
          <Row label="Seller receives" value={formatCents(fee.sellerShareCents)} muted />
          <Separator />
          <Row label="Total" value={formatCents(fee.amountCents)} strong />
        </dl>
        <p className="mt-4 text-xs text-muted-foreground">
          You pay the price; the platform fee comes out of the seller&apos;s share. Your payment is held in escrow
          until you confirm delivery (or 72 hours after delivery).
        </p>
      </CardContent>
    </Card>
  )
}

function Row({ label, value, muted, strong }: { label: string; value: string; muted?: boolean; strong?: boolean }) {
  return (
    <div className="flex items-center justify-between gap-4">
      <dt className={muted ? 'text-muted-foreground' : strong ? 'font-semibold' : undefined}>{label}</dt>
      <dd className={strong ? 'text-base font-semibold' : muted ? 'text-muted-foreground' : undefined}>{value}</dd>
    </div>
  )
}
