import { apiRoute } from '~/server/api/api-route.server'
import { AppError } from '~/server/domain/errors.server'
import { getReconciliationRun, reconciliationToCsv } from '~/server/domain/reconciliation.server'

// GET /api/admin/reconciliations/:runId/exceptions.csv: one stored reconciliation run, a row per
// difference (rule, sale, seller, expected, found), or one row saying it was clean. Reads only:
// running one is the POST on /admin (intent run-reconciliation). Admin only; never cached.
const api = apiRoute({
  GET: {
    summary: "A reconciliation run's differences as CSV",
    tags: ['Admin'],
    errors: [404],
    answers: { 200: { mediaType: 'text/csv', description: 'One row per difference, or one saying the run was clean' } },
    access: 'admin',
    handler: async ({ params }) => {
      const run = await getReconciliationRun(params.runId!)
      if (!run) throw new AppError(404, 'Reconciliation run not found')
      const day = run.startedAt.toISOString().slice(0, 10)
      return new Response(reconciliationToCsv(run), {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="forkmarket-reconciliation-${day}-${run.id.slice(0, 8)}.csv"`,
          'Cache-Control': 'private, no-store',
        },
      })
    },
  },
})
export const loader = api.loader
export const action = api.action
