import { CircleAlert, CircleCheck, Clock, MailOpen } from 'lucide-react'
import * as React from 'react'
import { Link, useRevalidator } from 'react-router'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { showToast } from '~/components/ui/toaster'
import { DISPUTE_WINDOW_HOURS } from '~/lib/escrow'
import { formatCents } from '~/lib/money'
import { purchaseOutcome } from '~/server/domain/checkout.server'
import { getOptionalUser } from '~/server/http/auth.server'
import type { Route } from './+types/purchase-success'

// Stripe returns here (?payment_intent=…). What the page says is the payment's
// real outcome (purchaseOutcome: our record, or Stripe when the record has not
// caught up); the browser's redirect_status is never taken as proof of payment.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getOptionalUser(context)
  const paymentIntentId = new URL(request.url).searchParams.get('payment_intent')
  if (!user) return { outcome: 'unknown' as const, sale: null, paymentIntentId }
  const { outcome, sale } = await purchaseOutcome(user.id, paymentIntentId)
  return { outcome, sale, paymentIntentId }
}

// While the webhook has not arrived, ask again a few times (1 s apart), then leave a refresh link.
const POLL_INTERVAL_MS = 1000
const MAX_POLLS = 15

export default function PurchaseSuccess({ loaderData }: Route.ComponentProps) {
  const { outcome, sale, paymentIntentId } = loaderData
  const revalidator = useRevalidator()
  const [polls, setPolls] = React.useState(0)

  React.useEffect(() => {
    if (outcome !== 'processing' || polls >= MAX_POLLS || revalidator.state !== 'idle') return
    const timer = setTimeout(() => {
      setPolls((n) => n + 1)
      void revalidator.revalidate()
    }, POLL_INTERVAL_MS)
    return () => clearTimeout(timer)
  }, [outcome, polls, revalidator])

  React.useEffect(() => {
    if (outcome === 'failed' || outcome === 'held' || !paymentIntentId) return
    showToast({
      id: `thanks-${paymentIntentId}`,
      type: 'success',
      title: 'Thank you for your purchase!',
      description: sale ? `Your order for "${sale.title}" has been received.` : 'Your order has been received.',
    })
  }, [outcome, paymentIntentId, sale])

  const status = STATUS_COPY[outcome]
  const Icon = status.icon
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <Card>
        <CardHeader className="items-center text-center">
          <Icon aria-hidden="true" className={`size-12 ${status.iconClass}`} />
          <CardTitle asChild>
            <h1 className="text-2xl">{TITLES[outcome]}</h1>
          </CardTitle>
          <CardDescription role="status" aria-live="polite">
            {status.text}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          {sale ? (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Listing</dt>
              <dd className="font-medium">{sale.title}</dd>
              <dt className="text-muted-foreground">Amount</dt>
              <dd>{formatCents(sale.amountCents)}</dd>
              <dt className="text-muted-foreground">Payment</dt>
              <dd>{status.label}</dd>
              {outcome === 'failed' && sale.failureReason ? (
                <>
                  <dt className="text-muted-foreground">Reason</dt>
                  <dd>{sale.failureReason}</dd>
                </>
              ) : null}
            </dl>
          ) : null}
          {sale?.githubInvitationUrl && (outcome === 'confirmed' || outcome === 'processing') ? (
            <div className="grid gap-1 rounded-lg border border-primary/40 bg-primary/5 p-4 text-sm">
              <h2 className="flex items-center gap-2 font-medium">
                <MailOpen aria-hidden="true" className="size-4 shrink-0" />
                Next: accept your GitHub invitation
              </h2>
              <p className="text-muted-foreground">
                This listing is delivered through GitHub. GitHub sends an invitation to the seller’s repository to your GitHub account
                separately (and e-mails it to you). Accept it, then fork the repository. Your {DISPUTE_WINDOW_HOURS}-hour window to check it
                starts once you have access.
              </p>
              <a
                href={sale.githubInvitationUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="w-fit font-medium text-primary underline underline-offset-4"
              >
                Accept the invitation on GitHub
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </div>
          ) : null}
          {outcome === 'processing' && polls >= MAX_POLLS ? (
            <p className="text-center text-sm text-muted-foreground">
              This is taking longer than usual.{' '}
              <Link className="underline" to={`?payment_intent=${encodeURIComponent(paymentIntentId ?? '')}`}>
                Check again
              </Link>
            </p>
          ) : null}
          <div className="flex flex-wrap justify-center gap-3">
            <Button asChild>
              <Link to="/purchases">View My Purchases</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/">Back to Home</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  )
}

const TITLES = {
  confirmed: 'Purchase Successful',
  processing: 'Purchase Successful',
  unknown: 'Purchase Successful',
  failed: 'Payment Failed',
  held: 'Payment Under Review',
} as const

const STATUS_COPY = {
  confirmed: {
    label: 'Confirmed',
    text: 'Your payment is confirmed. The money is held in escrow until you confirm you received your copy.',
    icon: CircleCheck,
    iconClass: 'text-success',
  },
  processing: {
    label: 'Processing',
    text: 'Your payment is processing. We are waiting for the payment provider to confirm it; this page updates by itself.',
    icon: Clock,
    iconClass: 'text-muted-foreground',
  },
  failed: {
    label: 'Failed',
    text: 'Your card was not charged. You can try again from the listing page.',
    icon: CircleAlert,
    iconClass: 'text-destructive',
  },
  held: {
    label: 'Under review',
    text: 'We received a payment that does not match this order, so the purchase is on hold. Our team will review it and refund you if needed.',
    icon: Clock,
    iconClass: 'text-muted-foreground',
  },
  unknown: {
    label: 'Processing',
    text: 'Your purchase appears in My Purchases as soon as the payment provider confirms it.',
    icon: CircleCheck,
    iconClass: 'text-success',
  },
} as const

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${TITLES[loaderData?.outcome ?? 'unknown']} · Forkmarket` }, { name: 'robots', content: 'noindex' }]
}
