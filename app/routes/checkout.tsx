import * as React from 'react'
import { data, Link, redirect, useNavigate } from 'react-router'
import { OrderSummary } from '~/components/checkout/order-summary'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Skeleton } from '~/components/ui/skeleton'
import { showToast } from '~/components/ui/toaster'
import { useHydrated } from '~/components/ui/use-hydrated'
import { PAYMENT_INTENT_FAILED, SELLER_SETUP_MESSAGE, SELLER_SETUP_TITLE } from '~/lib/checkout'
import { formatCents } from '~/lib/money'
import { useNonce } from '~/lib/nonce'
import { requireUser } from '~/server/auth.server'
import { startCheckout } from '~/server/checkout.server'
import { isAppError } from '~/server/errors.server'
import { appUrl } from '~/server/env.server'
import { stripeBrowserConfig } from '~/server/stripe.server'
import type { Route } from './+types/checkout'

// The card form (and with it Stripe.js) is its own chunk, fetched only here.
const PaymentForm = React.lazy(() => import('~/components/checkout/payment-form'))

// Opening the page requests the payment intent (spec §4 "Checkout"): the buyer's
// open attempt for this listing is reused, so reloading never makes a second one.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  try {
    const result = await startCheckout({ listingId: params.id, buyerId: user.id })
    const { summary } = result
    if (result.kind === 'processing') {
      throw redirect(`/purchase-success?${new URLSearchParams({ payment_intent: result.paymentIntentId })}`)
    }
    if (result.kind === 'requiresOnboarding') return { state: 'seller-setup' as const, summary }
    return {
      state: 'ready' as const,
      summary,
      clientSecret: result.clientSecret,
      stripe: stripeBrowserConfig(),
      returnUrl: `${appUrl(request)}/purchase-success`,
    }
  } catch (error) {
    if (!isAppError(error)) throw error
    if (error.status === 404) return data({ state: 'not-found' as const }, { status: 404 })
    if (error.status === 502) return data({ state: 'intent-failed' as const, message: PAYMENT_INTENT_FAILED }, { status: 502 })
    return data({ state: 'refused' as const, message: error.message }, { status: error.status })
  }
}

export default function Checkout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-semibold tracking-tight">Checkout</h1>
      <div className="mt-6">
        <CheckoutBody data={loaderData} />
      </div>
    </div>
  )
}

function CheckoutBody({ data: loaded }: { data: Route.ComponentProps['loaderData'] }) {
  switch (loaded.state) {
    case 'not-found':
      return (
        <Notice title="Listing not found" description="This listing does not exist or is no longer for sale.">
          <Button asChild>
            <Link to="/marketplace">Back to Marketplace</Link>
          </Button>
        </Notice>
      )
    case 'refused':
      return (
        <Notice title="You can't buy this listing" description={loaded.message}>
          <Button asChild variant="outline">
            <Link to="/purchases">My Purchases</Link>
          </Button>
          <Button asChild>
            <Link to="/marketplace">Back to Marketplace</Link>
          </Button>
        </Notice>
      )
    case 'intent-failed':
      return (
        <Alert variant="destructive">
          <AlertTitle>{loaded.message}</AlertTitle>
          <AlertDescription>
            <p>We could not reach the payment provider. No money was taken. Please try again in a moment.</p>
            <Button asChild variant="outline" size="sm" className="mt-2">
              <Link to=".">Try again</Link>
            </Button>
          </AlertDescription>
        </Alert>
      )
    case 'seller-setup':
      return <SellerSetupRequired summary={loaded.summary} />
    case 'ready':
      return <ReadyCheckout data={loaded} />
  }
}

/**
 * Stripe's sources are allowed by the CSP of /checkout documents only, so the
 * card form needs this page to have been loaded as a document: after an
 * in-app navigation from another page, load it again (once).
 */
function useCheckoutDocument(): boolean {
  const hydrated = useHydrated()
  const [ready, setReady] = React.useState(false)
  React.useEffect(() => {
    const entry = performance.getEntriesByType('navigation')[0]
    const documentPath = entry ? new URL(entry.name).pathname : window.location.pathname
    if (documentPath.startsWith('/checkout/')) setReady(true)
    else window.location.reload()
  }, [])
  return hydrated && ready
}

function ReadyCheckout({ data: loaded }: { data: Extract<Route.ComponentProps['loaderData'], { state: 'ready' }> }) {
  const nonce = useNonce()
  const hydrated = useCheckoutDocument()
  const { summary, stripe } = loaded
  const amountLabel = formatCents(summary.fee.amountCents)
  return (
    <div className="grid gap-6 md:grid-cols-[1fr_1.2fr]">
      {/* The local Stripe emulator's stand-in for js.stripe.com (absent in production). */}
      {stripe.scriptUrl ? <script async src={stripe.scriptUrl} nonce={nonce} /> : null}
      <OrderSummary title={summary.title} sellerUsername={summary.sellerUsername} fee={summary.fee} />
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Payment</h2>
          </CardTitle>
          <CardDescription>Pay by card. Your payment is held in escrow until you confirm delivery.</CardDescription>
        </CardHeader>
        <CardContent>
          {hydrated ? (
            <React.Suspense fallback={<PaymentFormPlaceholder amountLabel={amountLabel} />}>
              <PaymentForm
                publishableKey={stripe.publishableKey}
                scriptUrl={stripe.scriptUrl}
                clientSecret={loaded.clientSecret}
                amountLabel={amountLabel}
                returnUrl={loaded.returnUrl}
              />
            </React.Suspense>
          ) : (
            <>
              <PaymentFormPlaceholder amountLabel={amountLabel} />
              <noscript>
                <p className="mt-3 text-sm text-muted-foreground">Card payment needs JavaScript enabled in your browser.</p>
              </noscript>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  )
}

function PaymentFormPlaceholder({ amountLabel }: { amountLabel: string }) {
  return (
    <div className="grid gap-4" aria-hidden="true">
      <Skeleton className="h-10 w-full" />
      <div className="grid grid-cols-2 gap-3">
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
      </div>
      <Button size="lg" className="w-full" disabled tabIndex={-1}>
        Pay {amountLabel}
      </Button>
    </div>
  )
}

const SELLER_SETUP_REDIRECT_MS = 4000

/** Spec §4: the notice is shown and the buyer goes to / (a link without JavaScript). */
function SellerSetupRequired({ summary }: { summary: { title: string; sellerUsername: string } }) {
  const navigate = useNavigate()
  React.useEffect(() => {
    showToast({ id: `seller-setup-${summary.title}`, type: 'error', title: SELLER_SETUP_TITLE, description: SELLER_SETUP_MESSAGE })
    const timer = setTimeout(() => navigate('/'), SELLER_SETUP_REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [navigate, summary.title])
  return (
    <Notice title={SELLER_SETUP_TITLE} description={SELLER_SETUP_MESSAGE}>
      <p className="text-sm text-muted-foreground">
        &ldquo;{summary.title}&rdquo; by @{summary.sellerUsername} can be bought once the seller has added their bank
        details.
      </p>
      <Button asChild>
        <Link to="/">Go to Home</Link>
      </Button>
    </Notice>
  )
}

function Notice({ title, description, children }: { title: string; description: string; children?: React.ReactNode }) {
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle asChild>
          <h2>{title}</h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      {children ? <CardContent className="flex flex-wrap items-center gap-3">{children}</CardContent> : null}
    </Card>
  )
}

export function meta({ loaderData }: Route.MetaArgs) {
  const title = loaderData && 'summary' in loaderData ? `Checkout: ${loaderData.summary.title}` : 'Checkout'
  return [{ title: `${title} · Forkmarket` }, { name: 'robots', content: 'noindex' }]
}
