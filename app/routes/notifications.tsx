import { Bell } from 'lucide-react'
import { data, Form, Link } from 'react-router'
import { Button } from '~/components/ui/button'
import { formatDateTime } from '~/lib/format'
import { isUuid } from '~/lib/ids'
import { isAppError } from '~/server/domain/errors.server'
import { listNotifications, markAllRead, markRead } from '~/server/domain/notification-inbox.server'
import { requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/notifications'

export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.notificationRead })]

export function meta() {
  return [{ title: 'Notifications | Forkmarket' }]
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  return { notifications: await listNotifications(user.id) }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  const form = await readFormBody(request, context)
  const intent = form.get('intent')
  if (intent === 'mark-all-read') {
    await markAllRead(user.id)
    return redirectWithToast('/notifications', { type: 'success', title: 'All notifications marked as read' })
  }
  if (intent === 'mark-read') {
    const id = form.get('id')
    if (!isUuid(id)) throw data('Notification not found', { status: 404 })
    try {
      await markRead(user.id, id)
    } catch (error) {
      if (isAppError(error)) throw data(error.message, { status: error.status })
      throw error
    }
    return redirectWithToast('/notifications', { type: 'success', title: 'Marked as read' })
  }
  throw data('Unknown action', { status: 400 })
}

export default function NotificationsPage({ loaderData }: Route.ComponentProps) {
  const { notifications } = loaderData
  const unread = notifications.filter((n) => !n.readAt).length
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
          <Bell aria-hidden="true" className="size-6" /> Notifications
        </h1>
        {unread > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="mark-all-read" />
            <Button type="submit" variant="outline" size="sm">
              Mark all as read
            </Button>
          </Form>
        ) : null}
      </div>
      <p className="text-sm text-muted-foreground">
        {notifications.length === 0
          ? 'Nothing yet: purchases, sales, disputes and payouts are told here and by e-mail.'
          : `${unread} unread`}
      </p>
      <ul className="grid gap-3" aria-label="Notifications, newest first">
        {notifications.map((n) => (
          <li key={n.id} className={`rounded-lg border p-4 ${n.readAt ? '' : 'border-primary/60 bg-primary/5'}`}>
            <div className="flex flex-wrap items-start justify-between gap-2">
              <h2 className="text-base font-semibold">
                {n.readAt ? null : <span className="sr-only">Unread: </span>}
                {n.link ? (
                  <Link to={n.link} className="underline-offset-4 hover:underline">
                    {n.title}
                  </Link>
                ) : (
                  n.title
                )}
              </h2>
              <time dateTime={new Date(n.createdAt).toISOString()} className="text-sm text-muted-foreground">
                {formatDateTime(n.createdAt)}
              </time>
            </div>
            <p className="mt-1 text-sm">{n.body}</p>
            {n.readAt ? null : (
              <Form method="post" className="mt-2">
                <input type="hidden" name="intent" value="mark-read" />
                <input type="hidden" name="id" value={n.id} />
                <Button type="submit" variant="ghost" size="sm">
                  Mark as read<span className="sr-only">: {n.title}</span>
                </Button>
              </Form>
            )}
          </li>
        ))}
      </ul>
    </div>
  )
}
