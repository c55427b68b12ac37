import { MessageApiSchema } from '~/lib/sale-message-schema'
import { answer, PostedMessageAnswerSchema, ThreadAnswerSchema } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS } from '~/server/api/api-route.server'
import { getThread, messageJson, postMessage, SALE_MESSAGE_RATE_LIMIT } from '~/server/domain/sale-messages.server'
import { IDEMPOTENT_REPLAYED_HEADER, idempotentCreate } from '~/server/http/idempotency.server'

// GET /api/transactions/:id/messages: the sale's thread (its buyer and seller; an admin while it is
// disputed, audited). POST { body }: the buyer or the seller writes (plain text, ≤ 5,000 characters) → 201;
// with an Idempotency-Key a retry answers the message the first request posted (decision 026).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: SALE_MESSAGE_RATE_LIMIT },
  GET: {
    summary: "A sale's message thread",
    tags: ['Sales'],
    errors: [404],
    answers: { 200: ThreadAnswerSchema },
    access: 'user',
    handler: async ({ user, params }) => {
      const thread = await getThread(params.id!, user, { where: 'api' })
      return answer(ThreadAnswerSchema, {
        transactionId: thread.sale.id,
        status: thread.sale.status,
        viewer: thread.viewer,
        canPost: thread.canPost,
        adminCanRead: thread.adminCanRead,
        messages: thread.messages.map(messageJson),
      })
    },
  },
  POST: {
    summary: 'Write to the other party of a sale',
    tags: ['Sales'],
    errors: [404, 409, 422],
    answers: { 201: PostedMessageAnswerSchema },
    access: 'user',
    body: MessageApiSchema,
    handler: async ({ request, user, params, body }) => {
      const message = await postMessage({ saleId: params.id!, author: user, body: body.body, idempotent: idempotentCreate(request, body) })
      return Response.json(
        { message: { id: message.id, body: message.body, createdAt: message.createdAt, mine: true } },
        { status: 201, headers: message.replayed ? { [IDEMPOTENT_REPLAYED_HEADER]: 'true' } : undefined },
      )
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
