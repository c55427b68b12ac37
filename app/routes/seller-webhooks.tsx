import { ArrowLeft } from 'lucide-react'
import { Link } from 'react-router'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { DeliveryStatus, EndpointState } from '~/components/webhooks/delivery-status'
import { EndpointForm } from '~/components/webhooks/endpoint-form'
import { formatDateTime } from '~/lib/format'
import { MAX_WEBHOOK_ENDPOINTS } from '~/lib/webhooks'
import { listWebhookEndpoints } from '~/server/domain/webhook-endpoints.server'
import { lastWebhookDeliveries } from '~/server/domain/webhook-sender.server'
import { saveWebhookEndpoint } from '~/server/forms/webhook-endpoint-action.server'
import { requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/seller-webhooks'

// /seller/webhooks (issue 29, decision 033): the seller's endpoints and the form that registers one.
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.listingWrite })]

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const [endpoints, last] = await Promise.all([listWebhookEndpoints(user.id), lastWebhookDeliveries(user.id)])
  return { endpoints: endpoints.map((endpoint) => ({ ...endpoint, lastDelivery: last[endpoint.id] ?? null })) }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  return saveWebhookEndpoint(user.id, await readFormBody(request, context))
}

export default function SellerWebhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { endpoints } = loaderData
  return (
    <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6 px-4 py-8">
      <Link to="/seller/dashboard" className="flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Seller Dashboard
      </Link>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          We POST your sales, reviews and payouts to your own endpoints as they happen, signed with{' '}
          <a href="https://www.standardwebhooks.com/" className="text-primary underline underline-offset-4">
            Standard Webhooks
          </a>
          . Each event’s body is described in{' '}
          <a href="/api/openapi.json" className="text-primary underline underline-offset-4">
            the OpenAPI document
          </a>{' '}
          (<code>webhooks</code>).
        </p>
      </div>

      {endpoints.length ? (
        <Table label="Your webhook endpoints">
          <TableHeader>
            <TableRow>
              <TableHead>URL</TableHead>
              <TableHead>Events</TableHead>
              <TableHead>Description</TableHead>
              <TableHead>State</TableHead>
              <TableHead>Last delivery</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {endpoints.map((endpoint) => (
              <TableRow key={endpoint.id}>
                <TableCell className="font-medium [overflow-wrap:anywhere]">
                  <Link to={`/seller/webhooks/${endpoint.id}`} className="text-primary underline-offset-4 hover:underline">
                    {endpoint.url}
                  </Link>
                </TableCell>
                <TableCell label="Events">
                  <span className="[overflow-wrap:anywhere]">{endpoint.events.join(', ')}</span>
                </TableCell>
                <TableCell label="Description">
                  <span className="[overflow-wrap:anywhere]">{endpoint.description || '—'}</span>
                </TableCell>
                <TableCell label="State">
                  <EndpointState disabled={endpoint.disabledAt !== null} />
                </TableCell>
                <TableCell label="Last delivery">
                  {endpoint.lastDelivery ? (
                    <span className="grid gap-1">
                      <span>
                        <code>{endpoint.lastDelivery.eventType}</code> · {formatDateTime(endpoint.lastDelivery.createdAt)}
                      </span>
                      <DeliveryStatus status={endpoint.lastDelivery.status} httpStatus={endpoint.lastDelivery.lastStatus} />
                    </span>
                  ) : (
                    'None yet'
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : (
        <p className="text-sm text-muted-foreground">You have no webhook endpoints yet.</p>
      )}

      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Add an endpoint</h2>
          </CardTitle>
          <CardDescription>
            Up to {MAX_WEBHOOK_ENDPOINTS} endpoints. Its signing secret is on the endpoint’s page once it is registered.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <EndpointForm id="new-endpoint" lastResult={actionData?.result} submitLabel="Add endpoint" />
        </CardContent>
      </Card>
    </div>
  )
}

export function meta() {
  return [{ title: 'Webhooks · Forkmarket' }]
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}
