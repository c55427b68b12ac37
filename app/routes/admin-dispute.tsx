import { parseWithZod } from '@conform-to/zod/v4'
import { ArrowLeft, MessagesSquare } from 'lucide-react'
import { data, Link } from 'react-router'
import { adminFormId } from '~/components/admin/admin-actions'
import { DeliveryEvidence } from '~/components/admin/delivery-evidence'
import { DisputeDecisionSchema } from '~/components/admin/dispute-decision'
import { DisputeTimelineList } from '~/components/admin/dispute-timeline'
import { ReleaseOrRefund } from '~/components/admin/release-refund'
import { StatusBadge } from '~/components/status-badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { formatDateTime } from '~/lib/format'
import { formatCents } from '~/lib/money'
import { getDisputeTimeline, SOURCE_LABELS } from '~/server/domain/dispute-timeline.server'
import { isAppError } from '~/server/domain/errors.server'
import { refundSale, releaseFunds } from '~/server/domain/escrow-actions.server'
import { threadPath } from '~/server/domain/sale-messages.server'
import { requireAdmin } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/admin-dispute'

// /admin/disputes/:id (issue 18): a disputed sale's timeline, assembled from what the system recorded,
// and the decision (release or refund, a reason required) through the escrow machine's own verbs.
// Once decided the page stays readable (issue 26.7): the timeline, read only, with the decision.
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.admin })]

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context)
  try {
    const timeline = await getDisputeTimeline(params.id, admin.id)
    return { ...timeline, sourceLabels: SOURCE_LABELS, threadPath: threadPath(timeline.sale.id) }
  } catch (error) {
    if (isAppError(error)) throw data(error.message, { status: error.status })
    throw error
  }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context)
  const formData = await readFormBody(request, context)
  const submission = parseWithZod(formData, { schema: DisputeDecisionSchema })
  const intent = formData.get('intent') === 'refund' ? 'refund' : 'release'
  const formId = adminFormId(intent, params.id)
  if (submission.status !== 'success') return data({ formId, result: submission.reply() }, { status: 400 })
  const input = submission.value
  // The sale is the page's: a transactionId in the body naming another sale is refused.
  if (input.transactionId !== params.id) {
    return data({ formId, result: submission.reply({ formErrors: ['This form is about another sale'] }) }, { status: 400 })
  }
  try {
    if (input.intent === 'release') {
      await releaseFunds({ transactionId: params.id, adminId: admin.id, reason: input.reason })
      return redirectWithToast('/admin?tab=transactions', {
        title: 'Funds released',
        description: 'The sale is completed; its payout is now due.',
      })
    }
    await refundSale({ transactionId: params.id, adminId: admin.id, reason: input.reason })
    return redirectWithToast('/admin?tab=transactions', {
      title: 'Refund requested',
      description: 'The sale becomes refunded when the payment provider confirms.',
    })
  } catch (error) {
    if (!isAppError(error)) throw error
    return data({ formId, result: submission.reply({ formErrors: [error.message] }) }, { status: error.status })
  }
}

export default function AdminDispute({ loaderData }: Route.ComponentProps) {
  const { sale, github, entries, sourceLabels, decision } = loaderData
  return (
    <div className="mx-auto grid max-w-4xl grid-cols-1 gap-6 px-4 py-8">
      <Link to="/admin?tab=transactions" className="flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Admin Dashboard
      </Link>
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">Dispute: {sale.listingTitle}</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          <StatusBadge status={sale.status} />
          <span className="tabular-nums">{formatCents(sale.amountCents)}</span>
          <span>
            · buyer @{sale.buyerUsername} ({sale.buyerEmail}) · seller @{sale.sellerUsername} ({sale.sellerEmail})
          </span>
        </div>
      </div>

      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Decision</h2>
          </CardTitle>
          <CardDescription>
            Reported {sale.disputedAt ? formatDateTime(sale.disputedAt) : '—'}.{' '}
            {decision
              ? 'Decided: this record is read only.'
              : 'Release the funds to the seller or refund the buyer; the reason is required and recorded in the audit log.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <p className="rounded-md bg-muted/50 p-3 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">
            <span className="font-medium">Problem: </span>
            {sale.disputeReason ?? '—'}
          </p>
          {decision ? <DecisionRecord decision={decision} /> : <ReleaseOrRefund sale={sale} reasonRequired />}
          {decision ? (
            <p className="text-sm text-muted-foreground">
              The messages below are those written before the decision: admins read a sale’s conversation only while it is disputed.
            </p>
          ) : (
            <Link
              to={loaderData.threadPath}
              className="flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline"
            >
              <MessagesSquare aria-hidden="true" className="size-4" />
              Read the conversation between buyer and seller
            </Link>
          )}
        </CardContent>
      </Card>

      {/* Under the page's h2 sections: its heading is an h3 here (an h4 in the admin's list of disputes). */}
      {github ? <DeliveryEvidence evidence={github} headingLevel={3} /> : null}

      <section aria-labelledby="timeline-heading" className="grid gap-4">
        <h2 id="timeline-heading" className="text-lg font-semibold">
          Timeline
        </h2>
        <p className="text-sm text-muted-foreground">
          Everything the system recorded about this sale, oldest first, each with its source. Links are shown as text.
        </p>
        <DisputeTimelineList entries={entries} sourceLabels={sourceLabels} />
      </section>
    </div>
  )
}

/** A decided dispute: the outcome, who decided, when and why, from the audit log. */
function DecisionRecord({ decision }: { decision: NonNullable<Route.ComponentProps['loaderData']['decision']> }) {
  return (
    <dl className="grid gap-x-4 gap-y-1 rounded-md border p-3 text-sm sm:grid-cols-[auto_1fr]" data-dispute-decision={decision.outcome}>
      <dt className="text-muted-foreground">Decision</dt>
      <dd className="font-medium">{decision.outcome === 'released' ? 'Funds released to the seller' : 'Refunded to the buyer'}</dd>
      <dt className="text-muted-foreground">Decided by</dt>
      <dd className="[overflow-wrap:anywhere]">{decision.by}</dd>
      <dt className="text-muted-foreground">When</dt>
      <dd>
        <time dateTime={new Date(decision.at).toISOString()}>{formatDateTime(decision.at)}</time>
      </dd>
      <dt className="text-muted-foreground">Reason</dt>
      <dd className="whitespace-pre-wrap [overflow-wrap:anywhere]">{decision.reason ?? '—'}</dd>
      {decision.refundedAt ? (
        <>
          <dt className="text-muted-foreground">Refund confirmed by Stripe</dt>
          <dd>
            <time dateTime={new Date(decision.refundedAt).toISOString()}>{formatDateTime(decision.refundedAt)}</time>
          </dd>
        </>
      ) : null}
    </dl>
  )
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Dispute · ${loaderData.sale.listingTitle} · Forkmarket` : 'Dispute · Forkmarket' }]
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}
