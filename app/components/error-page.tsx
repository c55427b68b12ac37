import { isRouteErrorResponse } from 'react-router'
import { reasonPhrase } from '~/lib/http-status'

/**
 * The root error page. A refusal (4xx, 5xx thrown as a response) is titled by its status and
 * the status's own phrase (never the response's statusText: React Router calls every thrown
 * `data()` without one an "Internal Server Error"), and shows the message it was thrown with;
 * anything else says so plainly, without internals.
 */
export function ErrorPage({ error }: { error: unknown }) {
  let title = 'Something went wrong'
  let detail = 'An unexpected error occurred. Please try again in a moment.'
  if (isRouteErrorResponse(error)) {
    title = error.status === 404 ? 'Page not found' : `${error.status} ${reasonPhrase(error.status)}`
    detail = typeof error.data === 'string' && error.data ? error.data : detail
  }
  return (
    <div className="mx-auto max-w-2xl px-4 py-16">
      <title>{`${title} · Forkmarket`}</title>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-3 text-muted-foreground">{detail}</p>
    </div>
  )
}
