import { WebhookAnswerSchema } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { processGithubWebhook } from '~/server/domain/github-webhooks.server'
import { readTextBody } from '~/server/http/form-data.server'
import { apiError } from '~/server/http/responses.server'
import { verifyGithubSignature } from '~/server/infra/github.server'
import { logEvent } from '~/server/infra/log.server'

// POST /api/github/webhook: the Forkmarket GitHub App's signed events (member, fork,
// installation, installation_repositories). The signature (X-Hub-Signature-256 over the raw
// body, verified with @octokit/webhooks) is the authentication: 401 when it does not verify,
// 400 for a body that is not an event. Each X-GitHub-Delivery is applied once.
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.webhook, rateLimit: RATE_LIMITS.webhook },
  POST: {
    summary: 'GitHub App events (signed)',
    description: 'Authenticated by X-Hub-Signature-256 over the raw body; each X-GitHub-Delivery is applied once.',
    tags: ['Webhooks'],
    errors: [401, 500],
    answers: { 200: WebhookAnswerSchema },
    access: 'public',
    handler: async ({ request, context }) => {
      const raw = await readTextBody(request, context)
      if (!(await verifyGithubSignature(raw, request.headers.get('X-Hub-Signature-256')))) {
        logEvent('warn', 'github_webhook_signature_invalid', { category: 'security' })
        return apiError(401, 'Invalid signature')
      }
      const deliveryId = request.headers.get('X-GitHub-Delivery') ?? ''
      const event = request.headers.get('X-GitHub-Event') ?? ''
      if (!/^[A-Za-z0-9-]{1,100}$/.test(deliveryId) || !/^[a-z_]{1,64}$/.test(event))
        return apiError(400, 'Missing X-GitHub-Delivery or X-GitHub-Event')
      let payload: unknown
      try {
        payload = JSON.parse(raw)
      } catch {
        return apiError(400, 'The body is not JSON')
      }
      if (!payload || typeof payload !== 'object') return apiError(400, 'The body is not an event')
      try {
        const result = await processGithubWebhook({ deliveryId, event, payload })
        logEvent('info', 'github_webhook_event', { deliveryId, event, result })
        return { received: true, result }
      } catch (error) {
        // Not lost: the sweep polls GitHub for every open delivery (and the delivery can be redelivered from the App's settings).
        logEvent('error', 'github_webhook_failed', { deliveryId, event, message: error instanceof Error ? error.message : String(error) })
        return apiError(500, 'Could not process the event')
      }
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
