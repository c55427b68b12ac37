import { parseWithZod } from '@conform-to/zod/v4'
import { ArrowLeft } from 'lucide-react'
import { data, Link, redirect } from 'react-router'
import { SaleThread } from '~/components/messages/sale-thread'
import { StatusBadge } from '~/components/status-badge'
import { SendMessageSchema } from '~/lib/sale-message-schema'
import { isAppError } from '~/server/domain/errors.server'
import { getThread, postMessage, SALE_MESSAGE_RATE_LIMIT, threadPath } from '~/server/domain/sale-messages.server'
import { requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { BODY_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/sale-messages'

// /sales/:id/messages (issue 18): the sale's thread for its buyer (from My Purchases) and its seller
// (from the dashboard's sales); an admin reads it while the sale is disputed (audited). A plain form
// POST that works without JavaScript; with it, the page refreshes itself while visible.
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: SALE_MESSAGE_RATE_LIMIT })]

function refusal(error: unknown): never {
  if (isAppError(error)) throw data(error.message, { status: error.status, headers: error.headers })
  throw error
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const thread = await getThread(params.id, user, { where: 'thread page' }).catch(refusal)
  const back =
    thread.viewer === 'buyer'
      ? { to: '/purchases', label: 'My Purchases' }
      : thread.viewer === 'seller'
        ? { to: '/seller/dashboard', label: 'Seller Dashboard' }
        : { to: `/admin/disputes/${thread.sale.id}`, label: 'Dispute timeline' }
  return { thread, back }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  const formData = await readFormBody(request, context)
  const submission = parseWithZod(formData, { schema: SendMessageSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await postMessage({ saleId: params.id, author: user, body: submission.value.body })
  } catch (error) {
    if (!isAppError(error)) throw error
    // Not a party (or no such sale): the page itself refuses, as its loader would.
    if (error.status === 404 || error.status === 403) throw data(error.message, { status: error.status })
    return data({ result: submission.reply({ formErrors: [error.message] }) }, { status: error.status, headers: error.headers })
  }
  return redirect(`${threadPath(params.id)}#latest`)
}

export default function SaleMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { thread, back } = loaderData
  const other = thread.viewer === 'buyer' ? thread.sale.seller : thread.sale.buyer
  const otherParty = thread.viewer === 'admin' ? 'the parties' : `@${other.username}`
  return (
    <div className="mx-auto grid max-w-3xl grid-cols-1 gap-6 px-4 py-8">
      <Link to={back.to} className="flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {back.label}
      </Link>
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">Messages about “{thread.sale.listing.title}”</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          <StatusBadge status={thread.sale.status} />
          <span>
            {thread.viewer === 'admin'
              ? `Between @${thread.sale.buyer.username} (buyer) and @${thread.sale.seller.username} (seller). You are reading as an admin; this is recorded in the audit log.`
              : `With ${otherParty}, the ${thread.viewer === 'buyer' ? 'seller' : 'buyer'} of this sale.`}
          </span>
        </div>
      </div>
      <SaleThread
        messages={thread.messages}
        canPost={thread.canPost}
        disputed={thread.adminCanRead}
        otherParty={otherParty}
        lastResult={actionData?.result ?? null}
      />
      <span id="latest" />
    </div>
  )
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Messages · ${loaderData.thread.sale.listing.title} · Forkmarket` : 'Messages · Forkmarket' }]
}

// Private conversation: never in a shared cache. A refused post's Retry-After (the author's pace) reaches the page.
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After')
  return { 'Cache-Control': 'private, no-store', ...(retryAfter ? { 'Retry-After': retryAfter } : {}) }
}
