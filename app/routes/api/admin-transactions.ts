import { z } from '~/lib/zod'
import { AdminTransactionSchema } from '~/server/api/api-answers-money.server'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute } from '~/server/api/api-route.server'
import { listAdminTransactions, parseStatusFilter, toAdminTransactionView } from '~/server/domain/admin.server'
import { AppError } from '~/server/domain/errors.server'

// GET /api/admin/transactions[?status=…] (spec §7): the admin view of each
// transaction (spec §3) plus its status, newest first.
const api = apiRoute({
  GET: {
    summary: 'Every transaction, newest first',
    tags: ['Admin'],
    query: z.object({ status: z.string().optional() }),
    answers: { 200: z.array(AdminTransactionSchema) },
    access: 'admin',
    handler: async ({ request }) => {
      const status = parseStatusFilter(new URL(request.url).searchParams.get('status'))
      if (status === undefined) throw new AppError(400, 'Unknown transaction status')
      return answer(z.array(AdminTransactionSchema), (await listAdminTransactions({ status })).map(toAdminTransactionView))
    },
  },
})
export const loader = api.loader
export const action = api.action
