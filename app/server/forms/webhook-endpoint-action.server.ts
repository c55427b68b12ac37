import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { isUuid } from '~/lib/ids'
import {
  DELETE_WEBHOOK_INTENT,
  ENABLE_WEBHOOK_INTENT,
  RESEND_WEBHOOK_INTENT,
  ROTATE_WEBHOOK_INTENT,
  TEST_WEBHOOK_INTENT,
  WEBHOOK_ROTATION_OVERLAP_HOURS,
  WebhookEndpointFormSchema,
} from '~/lib/webhooks'
import { isAppError } from '../domain/errors.server.ts'
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  enableWebhookEndpoint,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from '../domain/webhook-endpoints.server.ts'
import { resendWebhookDelivery, sendTestWebhook } from '../domain/webhook-sender.server.ts'
import { redirectWithToast } from '../http/responses.server.ts'

/**
 * The seller's webhook forms (issue 29). Register (/seller/webhooks) and edit (/seller/webhooks/:id)
 * share one save; the endpoint's page also rotates, enables, deletes, sends a test event and resends
 * a delivery. Someone else's endpoint or delivery is not found (404), as if it did not exist.
 */
export async function saveWebhookEndpoint(userId: string, form: FormData, endpointId?: string) {
  const submission = parseWithZod(form, { schema: WebhookEndpointFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    if (endpointId) {
      await updateWebhookEndpoint(userId, endpointId, submission.value)
      return redirectWithToast(`/seller/webhooks/${endpointId}`, { title: 'Endpoint saved', type: 'success' })
    }
    const { endpoint } = await createWebhookEndpoint(userId, submission.value)
    return redirectWithToast(`/seller/webhooks/${endpoint.id}`, {
      title: 'Endpoint registered',
      description: 'Verify deliveries with its signing secret below, then send a test event.',
      type: 'success',
    })
  } catch (error) {
    if (!isAppError(error)) throw error
    if (error.status === 404) throw data('Not found', { status: 404 })
    return data(
      { result: submission.reply({ formErrors: error.fieldErrors ? [] : [error.message], fieldErrors: error.fieldErrors }) },
      { status: error.status },
    )
  }
}

export async function webhookEndpointAction(userId: string, endpointId: string, form: FormData) {
  const intent = form.get('intent')
  const here = `/seller/webhooks/${endpointId}`
  try {
    switch (intent) {
      case ROTATE_WEBHOOK_INTENT:
        await rotateWebhookSecret(userId, endpointId)
        return await redirectWithToast(`${here}#secret`, {
          title: 'Signing secret rotated',
          description: `The previous secret keeps signing for ${WEBHOOK_ROTATION_OVERLAP_HOURS} hours.`,
          type: 'success',
        })
      case ENABLE_WEBHOOK_INTENT:
        await enableWebhookEndpoint(userId, endpointId)
        return await redirectWithToast(here, {
          title: 'Endpoint enabled',
          description: 'New events are sent to it again.',
          type: 'success',
        })
      case DELETE_WEBHOOK_INTENT: {
        const endpoint = await deleteWebhookEndpoint(userId, endpointId)
        return await redirectWithToast('/seller/webhooks', { title: 'Endpoint deleted', description: endpoint.url, type: 'success' })
      }
      case TEST_WEBHOOK_INTENT:
        await sendTestWebhook(userId, endpointId)
        return await redirectWithToast(`${here}#deliveries`, {
          title: 'Test event queued',
          description: 'It appears in the delivery log below.',
          type: 'success',
        })
      case RESEND_WEBHOOK_INTENT: {
        const deliveryId = form.get('deliveryId')
        if (!isUuid(deliveryId)) throw data('Not found', { status: 404 })
        await resendWebhookDelivery(userId, deliveryId)
        return await redirectWithToast(`${here}#deliveries`, { title: 'Delivery queued again', type: 'success' })
      }
      default:
        throw data('Unknown action', { status: 400 })
    }
  } catch (error) {
    if (!isAppError(error)) throw error
    if (error.status === 404) throw data('Not found', { status: 404 })
    return redirectWithToast(here, { title: 'Error', description: error.message, type: 'error' })
  }
}
