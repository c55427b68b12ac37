import { BankDetailsVersionSchema } from '~/lib/bank-details-schema'
import { z } from '~/lib/zod'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { approveBankDetails } from '~/server/domain/bank-details.server'

// POST /api/admin/bank-details/:userId/approve `{ version }`: pending → approved (409 from any other state,
// or when the details changed since the version the admin reviewed).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.admin },
  POST: {
    access: 'admin',
    body: z.object({ version: BankDetailsVersionSchema }),
    handler: async ({ user, params, body }) => ({
      message: 'Bank details approved',
      bankDetails: await approveBankDetails({ userId: params.userId!, adminId: user.id, version: body.version }),
    }),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
