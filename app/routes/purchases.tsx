import { parseWithZod } from '@conform-to/zod/v4'
import { ShoppingBag, Star } from 'lucide-react'
import { data, Link } from 'react-router'
import { PurchaseStep, STEP_PARAM, type PurchaseIntent } from '~/components/purchases/purchase-actions'
import { canActOn, PurchasesTable, type PurchaseActionResult } from '~/components/purchases/purchases-table'
import { Button } from '~/components/ui/button'
import { DISPUTE_WINDOW_HOURS } from '~/lib/escrow'
import { PurchaseActionSchema } from '~/lib/purchase-schema'
import { isAppError } from '~/server/domain/errors.server'
import { confirmReceipt, disputeSale } from '~/server/domain/escrow-actions.server'
import { GITHUB_AUTHORIZE_PATH, githubPath } from '~/server/domain/github-accounts.server'
import { salesChecksViews } from '~/server/domain/github-checks.server'
import { listPurchases } from '~/server/domain/purchases.server'
import { reviewPrompts } from '~/server/domain/reviews.server'
import { requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/purchases'

export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.saleAction })]

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const [purchases, toReview] = await Promise.all([listPurchases(user.id), reviewPrompts(user.id)])
  const now = new Date()
  // The step page of an action (`?report=<id>`): how it is reached without JavaScript.
  const params = new URL(request.url).searchParams
  let step: { intent: PurchaseIntent; transactionId: string } | null = null
  for (const intent of Object.keys(STEP_PARAM) as PurchaseIntent[]) {
    const purchase = purchases.find((p) => p.id === params.get(STEP_PARAM[intent]))
    if (purchase && canActOn(purchase, now)) step = { intent, transactionId: purchase.id }
  }
  // Issue 30: a disputed purchase shows what GitHub's checks said at the listed and the delivered commit.
  const checks = await salesChecksViews(purchases.filter((p) => p.status === 'disputed').map((p) => p.id))
  // Issue 16: an invitation waiting for the buyer's GitHub account links to the App's authorization.
  return {
    purchases,
    toReview,
    now,
    step,
    checks: Object.fromEntries(checks),
    connectGithubUrl: githubPath(GITHUB_AUTHORIZE_PATH, '/purchases'),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  const formData = await readFormBody(request, context)
  const submission = parseWithZod(formData, { schema: PurchaseActionSchema })
  if (submission.status !== 'success') {
    const intent = formData.get('intent') === 'report-problem' ? 'report-problem' : 'confirm-receipt'
    return data(
      { transactionId: String(formData.get('transactionId') ?? ''), intent, result: submission.reply() } satisfies PurchaseActionResult,
      { status: 400 },
    )
  }
  const { value } = submission
  try {
    if (value.intent === 'confirm-receipt') {
      await confirmReceipt({ transactionId: value.transactionId, buyerId: user.id })
      return redirectWithToast('/purchases', {
        type: 'success',
        title: 'Receipt confirmed',
        description: 'Thank you! The payment has been released to the seller.',
      })
    }
    await disputeSale({ transactionId: value.transactionId, buyerId: user.id, reason: value.reason })
    return redirectWithToast('/purchases', {
      type: 'info',
      title: 'Problem reported',
      description: 'The payment stays on hold while an admin reviews your report.',
    })
  } catch (error) {
    if (!isAppError(error)) throw error
    return data(
      {
        transactionId: value.transactionId,
        intent: value.intent,
        result: submission.reply({ formErrors: [error.message] }),
      } satisfies PurchaseActionResult,
      { status: error.status === 502 ? 502 : error.status },
    )
  }
}

/** Issue 18: completed purchases the buyer can still review (the form is on the listing page). */
function ReviewPrompts({ prompts }: { prompts: { saleId: string; listingTitle: string; listingSlug: string }[] }) {
  if (prompts.length === 0) return null
  return (
    <section aria-labelledby="review-prompts-title" className="grid gap-2 rounded-lg border p-4">
      <h2 id="review-prompts-title" className="flex items-center gap-2 font-medium">
        <Star aria-hidden="true" className="size-4" />
        Review your purchases
      </h2>
      <ul className="grid gap-1 text-sm">
        {prompts.map((prompt) => (
          <li key={prompt.saleId}>
            <Link to={`/listing/${prompt.listingSlug}#reviews`} className="font-medium underline underline-offset-4">
              Write a review of {prompt.listingTitle}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

export default function Purchases({ loaderData, actionData }: Route.ComponentProps) {
  const { purchases, now, step } = loaderData
  const stepPurchase = step ? purchases.find((p) => p.id === step.transactionId) : undefined
  const stepResult =
    step && actionData?.transactionId === step.transactionId && actionData.intent === step.intent ? actionData.result : null
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-semibold tracking-tight">My Purchases</h1>
      <p className="mt-2 text-muted-foreground">
        Payments are held in escrow. Once a seller delivers, you have {DISPUTE_WINDOW_HOURS} hours to confirm receipt or report a problem;
        after that the sale is confirmed automatically.
      </p>
      {step && stepPurchase ? (
        <div className="mt-8">
          <PurchaseStep
            key={`${step.intent}-${step.transactionId}`}
            intent={step.intent}
            target={{
              transactionId: step.transactionId,
              title: stepPurchase.listing.title,
              amountCents: stepPurchase.amountCents,
              sellerUsername: stepPurchase.seller.username,
            }}
            result={stepResult}
          />
        </div>
      ) : null}
      <div className="mt-8">
        {purchases.length === 0 ? (
          <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed px-6 py-16 text-center">
            <ShoppingBag aria-hidden="true" className="size-10 text-muted-foreground" />
            <p className="text-lg font-medium">No purchases yet</p>
            <Button asChild>
              <Link to="/marketplace">Browse Marketplace</Link>
            </Button>
          </div>
        ) : (
          <div className="grid gap-6">
            <ReviewPrompts prompts={loaderData.toReview} />
            <PurchasesTable
              purchases={purchases}
              now={new Date(now)}
              actionResult={actionData ?? null}
              connectGithubUrl={loaderData.connectGithubUrl}
              checks={loaderData.checks}
            />
          </div>
        )}
      </div>
    </div>
  )
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'My Purchases · Forkmarket' }]
}
