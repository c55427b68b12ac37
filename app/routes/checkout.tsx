import * as React from 'react'
import { data, Link, redirect, useFetcher, useNavigate } from 'react-router'
import { GITHUB_REQUIRED_TITLE, GithubRequired } from '~/components/checkout/github-required'
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
import { checkoutSummary, startCheckout } from '~/server/domain/checkout.server'
import { isAppError } from '~/server/domain/errors.server'
import { GITHUB_AUTHORIZE_PATH, githubPath } from '~/server/domain/github-accounts.server'
import { requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import { appUrl } from '~/server/infra/env.server'
import { stripeBrowserConfig } from '~/server/infra/stripe.server'
import type { Route } from './+types/checkout'

export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.purchase, csp: 'checkout' })]

// The card form (and with it Stripe.js) is its own chunk, fetched only here.
const PaymentForm = React.lazy(() => import('~/components/checkout/payment-form'))

// GET shows the order summary and changes nothing (issue 14.6: no state change
// on a GET, even a cross-site one). The payment attempt and its intent are
// requested by the page's POST below as soon as the page is up (spec §4 "a
// payment intent is requested on page load") — at once when the buyer came from
// this site (Buy Now) or typed the address, after a click when another site
// linked here. The buyer's open attempt is reused, so a reload never makes a
// second one.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  try {
    const view = await checkoutSummary({ listingId: params.id, buyerId: user.id })
    if (view.kind === 'requiresOnboarding') return { state: 'seller-setup' as const, summary: view.summary }
    // Issue 16: a listing delivered through GitHub needs the buyer's GitHub account before any payment.
    if (view.kind === 'requiresGithub') {
      return {
        state: 'github-required' as const,
        summary: view.summary,
        authorizeUrl: githubPath(GITHUB_AUTHORIZE_PATH, new URL(request.url).pathname),
      }
    }
    return {
      state: 'ready' as const,
      summary: view.summary,
      stripe: stripeBrowserConfig(),
      returnUrl: `${appUrl(request)}/purchase-success`,
      autoStart: ['same-origin', 'none'].includes(request.headers.get('Sec-Fetch-Site') ?? ''),
    }
  } catch (error) {
    if (!isAppError(error)) throw error
    if (error.status === 404) return data({ state: 'not-found' as const }, { status: 404 })
    return data({ state: 'refused' as const, message: error.message }, { status: error.status })
  }
}

/** The buyer proceeds: open (or reuse) the payment attempt for the amount the page showed. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  const amount = Number((await readFormBody(request, context)).get('amountCents'))
  if (!Number.isSafeInteger(amount) || amount < 1) return data({ error: 'The amount to pay is missing' }, { status: 400 })
  try {
    const result = await startCheckout({ listingId: params.id, buyerId: user.id, expectedAmountCents: amount })
    if (result.kind === 'processing') {
      throw redirect(`/purchase-success?${new URLSearchParams({ payment_intent: result.paymentIntentId })}`)
    }
    if (result.kind === 'requiresOnboarding') return data({ error: SELLER_SETUP_MESSAGE }, { status: 409 })
    if (result.kind === 'requiresGithub')
      return data({ error: `${GITHUB_REQUIRED_TITLE}: reload this page to connect it.` }, { status: 409 })
    return { clientSecret: result.clientSecret, amountCents: result.summary.fee.amountCents }
  } catch (error) {
    if (!isAppError(error)) throw error
    return data({ error: error.message }, { status: error.status })
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
    case 'seller-setup':
      return <SellerSetupRequired summary={loaded.summary} />
    case 'github-required':
      return <GithubRequired summary={loaded.summary} authorizeUrl={loaded.authorizeUrl} />
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
  const fetcher = useFetcher<typeof action>()
  const { summary, stripe } = loaded
  const amountCents = summary.fee.amountCents
  const start = React.useCallback(
    () => void fetcher.submit({ amountCents: String(amountCents) }, { method: 'post' }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- fetcher.submit is stable
    [amountCents],
  )
  const started = React.useRef(false)
  React.useEffect(() => {
    if (!hydrated || !loaded.autoStart || started.current) return
    started.current = true
    start()
  }, [hydrated, loaded.autoStart, start])

  const result = fetcher.state === 'idle' ? fetcher.data : undefined
  const payment = result && 'clientSecret' in result ? result : null
  const error = result && 'error' in result ? result.error : null
  const amountLabel = formatCents(payment?.amountCents ?? amountCents)
  return (
    <div className="grid gap-6 md:grid-cols-[1fr_1.2fr]">
      {/* The local Stripe emulator's stand-in for js.stripe.com (absent in production). */}
      {stripe.scriptUrl ? <script async src={stripe.scriptUrl} nonce={nonce} /> : null}
      <OrderSummary title={summary.title} sellerUsername={summary.sellerUsername} fee={summary.fee} />
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle asChild>
            <h2>Payment</h2>
          </CardTitle>
          <CardDescription>Pay by card. Your payment is held in escrow until you confirm delivery.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {error ? (
            <Alert variant="destructive">
              <AlertTitle>{error === PAYMENT_INTENT_FAILED ? PAYMENT_INTENT_FAILED : 'We could not start your payment'}</AlertTitle>
              <AlertDescription>
                {error === PAYMENT_INTENT_FAILED
                  ? 'We could not reach the payment provider. No money was taken. Please try again in a moment.'
                  : error}
              </AlertDescription>
            </Alert>
          ) : null}
          {hydrated && payment ? (
            <React.Suspense fallback={<PaymentFormPlaceholder amountLabel={amountLabel} />}>
              <PaymentForm
                key={payment.clientSecret}
                publishableKey={stripe.publishableKey}
                scriptUrl={stripe.scriptUrl}
                clientSecret={payment.clientSecret}
                amountLabel={amountLabel}
                returnUrl={loaded.returnUrl}
              />
            </React.Suspense>
          ) : hydrated && fetcher.state === 'idle' && (error || !loaded.autoStart) ? (
            <Button type="button" size="lg" className="w-full" onClick={start}>
              Continue to payment of {amountLabel}
            </Button>
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

/**
 * Spec §4: the notice is shown and the buyer goes to / — with JavaScript after
 * the toast, without it by a refresh (issue 14.11). The rule behind it is
 * sellerCanTakePayments (app/lib/seller-eligibility.ts), as on the listing page.
 */
function SellerSetupRequired({ summary }: { summary: { title: string; sellerUsername: string } }) {
  const navigate = useNavigate()
  React.useEffect(() => {
    showToast({ id: `seller-setup-${summary.title}`, type: 'error', title: SELLER_SETUP_TITLE, description: SELLER_SETUP_MESSAGE })
    const timer = setTimeout(() => navigate('/'), SELLER_SETUP_REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [navigate, summary.title])
  return (
    <Notice title={SELLER_SETUP_TITLE} description={SELLER_SETUP_MESSAGE}>
      <noscript>
        <meta httpEquiv="refresh" content={`${SELLER_SETUP_REDIRECT_MS / 1000};url=/`} />
      </noscript>
      <p className="text-sm text-muted-foreground">
        &ldquo;{summary.title}&rdquo; by @{summary.sellerUsername} can be bought once the seller has added their bank details.
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
