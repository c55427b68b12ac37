import type { ZodOpenApiPathsObject } from 'zod-openapi'
import { WEBHOOK_EVENTS, WEBHOOK_ROTATION_OVERLAP_HOURS, WEBHOOK_TEST_EVENT } from '~/lib/webhooks'
import { z } from '~/lib/zod'
import { WEBHOOK_PAYLOAD_SCHEMAS, type WebhookPayloadType } from '../domain/webhook-payloads.server.ts'
import { MAX_ATTEMPTS, RETRY_SCHEDULE_MS } from '../domain/webhook-sender.server.ts'
import { SEND_TIMEOUT_MS } from '../infra/webhook-http.server.ts'

const RETRY_DAYS = Math.round(RETRY_SCHEDULE_MS.reduce((sum, ms) => sum + ms, 0) / 86_400_000)

/**
 * The OpenAPI document's `webhooks` section (issue 29, decision 033): one entry per event a seller's
 * endpoint receives, its body `{ type, timestamp, data }` built from the Zod schema the event's
 * builder is typed by (webhook-payloads.server.ts), and the Standard Webhooks headers that sign it.
 */

const HEADERS = {
  'webhook-id': 'The message id (`msg_…`): the same on every attempt and on Resend, so process each id once',
  'webhook-timestamp': 'Seconds since the epoch when this attempt was signed; refuse old ones (replays)',
  'webhook-signature': `\`v1,<base64 HMAC-SHA256 of id.timestamp.body>\` with your endpoint's whsec_ secret; during the ${WEBHOOK_ROTATION_OVERLAP_HOURS} h after a rotation, one per secret, space-separated`,
}

const DESCRIPTIONS: Record<WebhookPayloadType, string> = {
  ...WEBHOOK_EVENTS,
  [WEBHOOK_TEST_EVENT]: 'Sent from the endpoint’s page (Send test event) to check that you receive and verify deliveries',
}

function webhookOperation(type: WebhookPayloadType) {
  const body = z
    .strictObject({
      type: z.literal(type),
      timestamp: z.iso.datetime({ offset: true }).meta({ description: 'When the event happened' }),
      data: WEBHOOK_PAYLOAD_SCHEMAS[type],
    })
    .meta({ id: `Webhook_${type.replace(/\W+(.)/g, (_, next: string) => next.toUpperCase())}` })
  return {
    post: {
      operationId: `webhook${type.replace(/(^|\W+)(.)/g, (_, _sep: string, next: string) => next.toUpperCase())}`,
      summary: type,
      description: DESCRIPTIONS[type],
      tags: ['Webhooks'],
      requestParams: {
        header: z.object(
          Object.fromEntries(Object.entries(HEADERS).map(([name, description]) => [name, z.string().meta({ description })])),
        ),
      },
      requestBody: { required: true, content: { 'application/json': { schema: body } } },
      responses: {
        '2XX': {
          description: `Received. Any other answer, a timeout (${SEND_TIMEOUT_MS / 1000} s) or a redirect is retried, up to ${MAX_ATTEMPTS} attempts over about ${RETRY_DAYS} days`,
        },
      },
    },
  }
}

export function webhooksSection(): ZodOpenApiPathsObject {
  return Object.fromEntries((Object.keys(WEBHOOK_PAYLOAD_SCHEMAS) as WebhookPayloadType[]).map((type) => [type, webhookOperation(type)]))
}
