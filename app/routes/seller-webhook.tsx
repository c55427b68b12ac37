import { ArrowLeft } from 'lucide-react'
import { data, Form, Link } from 'react-router'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { Button, buttonVariants } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DeliveryLog } from '~/components/webhooks/delivery-log'
import { EndpointState } from '~/components/webhooks/delivery-status'
import { EndpointForm } from '~/components/webhooks/endpoint-form'
import { formatDateTime } from '~/lib/format'
import {
  DELETE_WEBHOOK_INTENT,
  ENABLE_WEBHOOK_INTENT,
  ROTATE_WEBHOOK_INTENT,
  SAVE_WEBHOOK_INTENT,
  TEST_WEBHOOK_INTENT,
  WEBHOOK_ROTATION_OVERLAP_HOURS,
} from '~/lib/webhooks'
import { getWebhookEndpoint } from '~/server/domain/webhook-endpoints.server'
import { endpointDeliveries } from '~/server/domain/webhook-sender.server'
import { saveWebhookEndpoint, webhookEndpointAction } from '~/server/forms/webhook-endpoint-action.server'
import { requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/seller-webhook'

// /seller/webhooks/:id (issue 29, decision 033): one endpoint of the seller's — edit it, its signing
// secret, rotate (?rotate) and delete (?delete) through a confirm step that works without JavaScript
// (decision 014), enable it again, send a test event, and the delivery log with Resend. The secret is
// on the page, so the page is never stored nor compressed (BREACH, as /profile's API keys).
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.listingWrite, compress: false })]

async function ownEndpoint(userId: string, id: string) {
  const endpoint = await getWebhookEndpoint(userId, id)
  if (!endpoint) throw data('Not found', { status: 404 })
  return endpoint
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const endpoint = await ownEndpoint(user.id, params.id)
  const query = new URL(request.url).searchParams
  return {
    endpoint,
    deliveries: await endpointDeliveries(user.id, endpoint.id),
    confirm: query.has('delete') ? ('delete' as const) : query.has('rotate') ? ('rotate' as const) : null,
  }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  const endpoint = await ownEndpoint(user.id, params.id)
  const form = await readFormBody(request, context)
  if (form.get('intent') === SAVE_WEBHOOK_INTENT) return saveWebhookEndpoint(user.id, form, endpoint.id)
  return webhookEndpointAction(user.id, endpoint.id, form)
}

const linkClass = 'text-primary underline underline-offset-4'

export default function SellerWebhook({ loaderData, actionData }: Route.ComponentProps) {
  const { endpoint, deliveries, confirm } = loaderData
  const here = `/seller/webhooks/${endpoint.id}`
  const disabled = endpoint.disabledAt !== null
  return (
    <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6 px-4 py-8">
      <Link to="/seller/webhooks" className="flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Webhooks
      </Link>
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{endpoint.url}</h1>
        <div className="flex flex-wrap items-center gap-3 text-sm text-muted-foreground">
          <EndpointState disabled={disabled} />
          <span>Registered {formatDateTime(endpoint.createdAt)}</span>
        </div>
      </div>

      {disabled ? (
        <Alert variant="destructive" role="status">
          <AlertTitle>This endpoint is disabled</AlertTitle>
          <AlertDescription className="grid gap-3">
            <p className="[overflow-wrap:anywhere]">{endpoint.disabledReason ?? 'It failed for too long.'}</p>
            <p>No events are sent to it until you enable it again.</p>
            <Form method="post">
              <input type="hidden" name="intent" value={ENABLE_WEBHOOK_INTENT} />
              <Button type="submit">Enable again</Button>
            </Form>
          </AlertDescription>
        </Alert>
      ) : null}

      <Card id="secret" className="scroll-mt-20">
        <CardHeader>
          <CardTitle asChild>
            <h2>Signing secret</h2>
          </CardTitle>
          <CardDescription>
            Verify each delivery’s <code>webhook-signature</code> with this secret (any Standard Webhooks library does it). Keep it private.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <code
            data-testid="webhook-secret"
            className="block rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all text-foreground select-all"
          >
            {endpoint.secret}
          </code>
          {endpoint.previousSecretExpiresAt ? (
            <p className="text-sm">
              The previous secret also signs every delivery until {formatDateTime(endpoint.previousSecretExpiresAt)}.
            </p>
          ) : null}
          {confirm === 'rotate' ? (
            <div role="region" aria-labelledby="rotate-title" className="grid gap-3 rounded-lg border border-warning p-4">
              <h3 id="rotate-title" className="text-base font-semibold">
                Rotate the signing secret?
              </h3>
              <p className="text-sm">
                A new secret signs from now on. The old one keeps working for {WEBHOOK_ROTATION_OVERLAP_HOURS} hours: each delivery carries
                both signatures until then, so you can switch your receiver without losing an event.
              </p>
              <Form method="post" className="flex flex-wrap gap-2">
                <input type="hidden" name="intent" value={ROTATE_WEBHOOK_INTENT} />
                <Button type="submit">Rotate secret</Button>
                <Link to={`${here}#secret`} className={buttonVariants({ variant: 'outline' })}>
                  Cancel
                </Link>
              </Form>
            </div>
          ) : (
            <div>
              <Link to={`${here}?rotate#secret`} preventScrollReset className={buttonVariants({ variant: 'outline' })}>
                Rotate secret
              </Link>
            </div>
          )}
        </CardContent>
      </Card>

      <Card id="deliveries" className="scroll-mt-20">
        <CardHeader>
          <CardTitle asChild>
            <h2>Deliveries</h2>
          </CardTitle>
          <CardDescription>
            The latest 50. A failed delivery is retried for about three days; Resend sends it again with the same <code>webhook-id</code>.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {disabled ? null : (
            <Form method="post">
              <input type="hidden" name="intent" value={TEST_WEBHOOK_INTENT} />
              <Button type="submit" variant="secondary">
                Send test event
              </Button>
            </Form>
          )}
          <div>
            <Link to={`${here}#deliveries`} className={linkClass}>
              Refresh the log
            </Link>
          </div>
          <DeliveryLog deliveries={deliveries} canSend={!disabled} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Edit</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <EndpointForm
            id="edit-endpoint"
            lastResult={actionData?.result}
            defaultValue={{ url: endpoint.url, description: endpoint.description, events: endpoint.events }}
            submitLabel="Save changes"
          />
        </CardContent>
      </Card>

      <Card id="delete" className="scroll-mt-20">
        <CardHeader>
          <CardTitle asChild>
            <h2>Delete</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          {confirm === 'delete' ? (
            <div role="region" aria-labelledby="delete-title" className="grid gap-3 rounded-lg border border-destructive/50 p-4">
              <h3 id="delete-title" className="text-base font-semibold">
                Delete this endpoint?
              </h3>
              <p className="text-sm">No more events are sent to it, and its delivery log is deleted with it. This cannot be undone.</p>
              <Form method="post" className="flex flex-wrap gap-2">
                <input type="hidden" name="intent" value={DELETE_WEBHOOK_INTENT} />
                <Button type="submit" variant="destructive">
                  Delete endpoint
                </Button>
                <Link to={here} className={buttonVariants({ variant: 'outline' })}>
                  Cancel
                </Link>
              </Form>
            </div>
          ) : (
            <Link to={`${here}?delete#delete`} preventScrollReset className={buttonVariants({ variant: 'outline' })}>
              Delete endpoint…
            </Link>
          )}
        </CardContent>
      </Card>
    </div>
  )
}

export function meta() {
  return [{ title: 'Webhook endpoint · Forkmarket' }]
}

// The signing secret is on the page: never in a shared cache.
export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}
