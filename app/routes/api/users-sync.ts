import { answer, UserSchema } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'

// POST /api/users/sync (spec §7). The record is keyed on the verified token's
// user: ids or e-mails in the body are ignored, so nobody can sync as someone else.
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.userSync },
  POST: {
    summary: 'The product user of your session or token',
    tags: ['Users'],
    answers: { 200: UserSchema },
    access: 'user',
    handler: ({ user }) => answer(UserSchema, user),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
