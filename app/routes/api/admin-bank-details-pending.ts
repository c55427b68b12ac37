import { data } from 'react-router'
import { z } from '~/lib/zod'
import { PendingBankDetailsSchema } from '~/server/api/api-answers-money.server'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute } from '~/server/api/api-route.server'
import { listPendingBankDetails } from '~/server/domain/bank-details.server'

// GET /api/admin/bank-details/pending (spec §7): `[{ id (user id), email, bankDetails }]`
// with the full account number / IBAN — the admin checks them before approving.
const api = apiRoute({
  GET: {
    summary: 'Bank details waiting for approval, unmasked',
    tags: ['Admin'],
    answers: { 200: z.array(PendingBankDetailsSchema) },
    access: 'admin',
    handler: async () =>
      data(answer(z.array(PendingBankDetailsSchema), await listPendingBankDetails()), {
        headers: { 'Cache-Control': 'private, no-store' },
      }),
  },
})
export const loader = api.loader
export const action = api.action
