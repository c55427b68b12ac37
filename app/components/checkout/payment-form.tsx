import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js'
import type { Appearance, Stripe } from '@stripe/stripe-js'
import { loadStripe } from '@stripe/stripe-js/pure'
import * as React from 'react'
import { Theme, useTheme } from 'remix-themes'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { showToast } from '~/components/ui/toaster'
import { PAYMENT_FAILED_TITLE } from '~/lib/checkout'

/*
 * The card form. Loaded lazily and only on /checkout (React.lazy from the
 * route), so Stripe.js and this code never reach other pages. In production
 * loadStripe fetches Stripe.js from js.stripe.com; with the local emulator the
 * page has already put the emulator's stand-in on the page with a nonce'd
 * <script>, and loadStripe uses the window.Stripe it defines.
 */

export interface PaymentFormProps {
  publishableKey: string
  /** The emulator's stand-in script (null in production). */
  scriptUrl: string | null
  clientSecret: string
  amountLabel: string
  returnUrl: string
}

let stripePromise: Promise<Stripe | null> | undefined

function getStripe(publishableKey: string, scriptUrl: string | null): Promise<Stripe | null> {
  stripePromise ??= (scriptUrl ? waitForStandIn() : Promise.resolve()).then(() => loadStripe(publishableKey))
  // A failed load may be retried by a later mount (e.g. after a network blip).
  stripePromise.catch(() => {
    stripePromise = undefined
  })
  return stripePromise
}

/** The stand-in is an async <script>; wait for the global it defines (not for js.stripe.com). */
function waitForStandIn(timeoutMs = 15_000): Promise<void> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const check = () => {
      if ((window as { Stripe?: unknown }).Stripe) return resolve()
      if (Date.now() - started > timeoutMs) return reject(new Error('Failed to load Stripe.js'))
      setTimeout(check, 25)
    }
    check()
  })
}

/**
 * The card form in the site's colours (app/app.css tokens, as hex: Stripe's
 * Appearance API takes no oklch): labels and text at least 4.5:1 on the card,
 * input borders at least 3:1, in both themes (issue 14.13).
 */
const FONT = 'ui-sans-serif, system-ui, sans-serif'
export const CARD_FORM_APPEARANCE: Record<'light' | 'dark', Appearance> = {
  light: {
    theme: 'stripe',
    variables: {
      colorPrimary: '#5942e3',
      colorBackground: '#ffffff',
      colorText: '#161627',
      colorTextSecondary: '#616271',
      colorTextPlaceholder: '#616271',
      colorDanger: '#c90f1a',
      fontFamily: FONT,
      borderRadius: '8px',
    },
    rules: { '.Input': { border: '1px solid #8a8a9b' }, '.Label': { fontWeight: '500' } },
  },
  dark: {
    theme: 'night',
    variables: {
      colorPrimary: '#9c93ff',
      colorBackground: '#15151f',
      colorText: '#f3f3f7',
      colorTextSecondary: '#a9a9b9',
      colorTextPlaceholder: '#a9a9b9',
      colorDanger: '#f96f70',
      fontFamily: FONT,
      borderRadius: '8px',
    },
    rules: { '.Input': { border: '1px solid #767686' }, '.Label': { fontWeight: '500' } },
  },
}

export default function PaymentForm({ publishableKey, scriptUrl, clientSecret, amountLabel, returnUrl }: PaymentFormProps) {
  const stripe = React.useMemo(() => getStripe(publishableKey, scriptUrl), [publishableKey, scriptUrl])
  const [theme] = useTheme()
  const appearance = CARD_FORM_APPEARANCE[theme === Theme.DARK ? 'dark' : 'light']
  return (
    <Elements stripe={stripe} options={{ clientSecret, appearance }}>
      <CardForm amountLabel={amountLabel} returnUrl={returnUrl} />
    </Elements>
  )
}

function CardForm({ amountLabel, returnUrl }: { amountLabel: string; returnUrl: string }) {
  const stripe = useStripe()
  const elements = useElements()
  const [ready, setReady] = React.useState(false)
  const [submitting, setSubmitting] = React.useState(false)
  const [failure, setFailure] = React.useState<string | null>(null)

  async function pay(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!stripe || !elements || submitting) return
    setSubmitting(true)
    setFailure(null)
    // On success Stripe navigates to return_url (/purchase-success); we only get here on an error.
    const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl } })
    setSubmitting(false)
    // An incomplete card number is shown by the card form itself; it is not a failed payment.
    if (error.type === 'validation_error') return
    const message = error.message ?? 'Your payment could not be completed. Please try another card.'
    setFailure(message)
    showToast({ type: 'error', title: PAYMENT_FAILED_TITLE, description: message })
  }

  return (
    <form onSubmit={pay} className="grid gap-4" aria-busy={submitting}>
      <PaymentElement onReady={() => setReady(true)} />
      {failure ? (
        <Alert variant="destructive">
          <AlertTitle>{PAYMENT_FAILED_TITLE}</AlertTitle>
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      ) : null}
      <Button type="submit" size="lg" className="w-full" disabled={!stripe || !elements || !ready || submitting}>
        {submitting ? 'Processing…' : `Pay ${amountLabel}`}
      </Button>
    </form>
  )
}
