import { parseWithZod } from '@conform-to/zod/v4'
import { ArrowLeft } from 'lucide-react'
import { data, Link } from 'react-router'
import { ModerationItem, SuspensionItem, type ModerationItemView, type SuspensionItemView } from '~/components/moderation/moderation-item'
import { ModerationDecisionSchema } from '~/lib/report-schema'
import { isAppError } from '~/server/domain/errors.server'
import { hiddenByModeration, moderationQueue, restoreListing, takeDownListing, upholdTakedown } from '~/server/domain/moderation.server'
import { dismissReports } from '~/server/domain/reports.server'
import { hideReview, restoreReview } from '~/server/domain/reviews.server'
import { approveSuspension, cancelSuspension, liftSuspension, openSuspensions, requestSuspension } from '~/server/domain/suspensions.server'
import { requireAdmin } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/admin-moderation'

// /admin/moderation (issue 30): the items people reported and the takedowns their sellers answered,
// each with every report and the seller's history; dismiss, take down, uphold, restore; hide or
// restore a review; then what moderation hid, to restore it.
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.admin })]

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context)
  const [queue, hidden, suspensions] = await Promise.all([moderationQueue(), hiddenByModeration(), openSuspensions()])
  return { queue, hidden, suspensions, viewerId: admin.id }
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context)
  const formData = await readFormBody(request, context)
  const submission = parseWithZod(formData, { schema: ModerationDecisionSchema })
  const answer = (status: number, result = submission.reply()) =>
    data({ intent: String(formData.get('intent') ?? ''), targetId: String(formData.get('targetId') ?? ''), result }, { status })
  if (submission.status !== 'success') return answer(400)
  const input = submission.value
  let toast: { title: string; description: string }
  try {
    if (input.intent === 'dismiss') {
      const count = await dismissReports({ targetType: input.targetType, targetId: input.targetId, adminId: admin.id, note: input.note })
      toast = { title: 'Reports dismissed', description: `${count} ${count === 1 ? 'report was' : 'reports were'} closed.` }
    } else if (input.intent === 'take-down') {
      await takeDownListing({ listingId: input.targetId, adminId: admin.id, category: input.category, reason: input.note })
      toast = { title: 'Listing taken down', description: 'It has left the marketplace; its seller sees your reason.' }
    } else if (input.intent === 'uphold') {
      await upholdTakedown({ listingId: input.targetId, adminId: admin.id, note: input.note })
      toast = { title: 'Takedown upheld', description: 'The listing stays hidden.' }
    } else if (input.intent === 'restore') {
      await restoreListing({ listingId: input.targetId, adminId: admin.id, note: input.note })
      toast = { title: 'Listing restored', description: 'It is as visible as it was before the takedown.' }
    } else if (input.intent === 'hide-review') {
      await hideReview({ reviewId: input.targetId, adminId: admin.id, reason: input.note })
      toast = { title: 'Review hidden', description: 'It has left the listing page; its author sees your reason.' }
    } else if (input.intent === 'restore-review') {
      await restoreReview({ reviewId: input.targetId, adminId: admin.id, note: input.note })
      toast = { title: 'Review restored', description: 'It is on the listing page again.' }
    } else if (input.intent === 'request-suspension') {
      await requestSuspension({ userId: input.targetId, adminId: admin.id, reason: input.note })
      toast = { title: 'Suspension requested', description: 'A second admin must approve it before it takes effect.' }
    } else if (input.intent === 'approve-suspension') {
      await approveSuspension({ userId: input.targetId, adminId: admin.id })
      toast = { title: 'User suspended', description: 'They cannot sign in; their listings are hidden and their payouts held.' }
    } else if (input.intent === 'cancel-suspension') {
      await cancelSuspension({ userId: input.targetId, adminId: admin.id, reason: input.note })
      toast = { title: 'Suspension request cancelled', description: 'The user is not suspended.' }
    } else {
      await liftSuspension({ userId: input.targetId, adminId: admin.id, reason: input.note })
      toast = { title: 'Suspension lifted', description: 'Sign-in, listings and payouts are back.' }
    }
  } catch (error) {
    if (!isAppError(error)) throw error
    return answer(error.status, submission.reply({ formErrors: [error.message] }))
  }
  return redirectWithToast('/admin/moderation', toast)
}

export default function AdminModeration({ loaderData, actionData }: Route.ComponentProps) {
  const queue = loaderData.queue as unknown as ModerationItemView[]
  const hidden = loaderData.hidden as unknown as ModerationItemView[]
  const suspensions = loaderData.suspensions as unknown as SuspensionItemView[]
  return (
    <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6 px-4 py-8">
      <Link to="/admin" className="flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Admin
      </Link>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Moderation</h1>
        <p className="text-sm text-muted-foreground">
          Reported listings, reviews and users, the longest waiting first, then takedowns their sellers answered.
        </p>
      </div>
      {suspensions.length > 0 ? (
        <section aria-labelledby="suspensions-title" className="grid gap-3">
          <h2 id="suspensions-title" className="text-xl font-semibold tracking-tight">
            Suspensions
          </h2>
          {suspensions.map((suspension) => (
            <SuspensionItem key={suspension.id} suspension={suspension} viewerId={loaderData.viewerId} actionData={actionData} />
          ))}
        </section>
      ) : null}
      <section aria-label="To decide" className="grid gap-6">
        {queue.length === 0 ? (
          <p className="rounded-lg border p-6 text-sm text-muted-foreground">Nothing to decide: no open reports and no counter-notices.</p>
        ) : (
          queue.map((entry) => (
            <ModerationItem key={`${entry.item.targetType}-${entry.item.targetId}`} entry={entry} actionData={actionData} />
          ))
        )}
      </section>
      {hidden.length > 0 ? (
        <section aria-labelledby="hidden-title" className="grid gap-3">
          <div className="grid gap-1">
            <h2 id="hidden-title" className="text-xl font-semibold tracking-tight">
              Hidden by moderation
            </h2>
            <p className="text-sm text-muted-foreground">Listings taken down and not answered, and hidden reviews, the latest first.</p>
          </div>
          {hidden.map((entry) => (
            <ModerationItem
              key={`${entry.item.targetType}-${entry.item.targetId}`}
              entry={entry}
              actionData={actionData}
              headingLevel={3}
              offerSuspension={false}
            />
          ))}
        </section>
      ) : null}
    </div>
  )
}

export function meta() {
  return [{ title: 'Moderation · Admin · Forkmarket' }]
}
