import { z } from '~/lib/zod'
import { apiRoute } from '~/server/api/api-route.server'
import { AppError } from '~/server/domain/errors.server'
import { payoutBatchFile } from '~/server/domain/payout-batch-views.server'

// GET /api/admin/payout-batches/:batchId/files/pain.001.xml | bank.csv: the bank files of an
// exported batch, byte-identical on every download (their SHA-256 was recorded at approval).
// Reading only: exporting is the POST …/export. Full account numbers: admin only, never cached.
const FORMATS = { 'pain.001.xml': 'xml', 'bank.csv': 'csv' } as const

const api = apiRoute({
  GET: {
    summary: "Download an exported batch's bank file (pain.001 XML or CSV)",
    tags: ['Admin'],
    params: z.object({ batchId: z.string(), format: z.enum(Object.keys(FORMATS) as [keyof typeof FORMATS]) }),
    errors: [404, 409],
    answers: {
      200: { mediaType: ['application/xml', 'text/csv'], description: 'pain.001.xml: the ISO 20022 credit transfer file; bank.csv: CSV' },
    },
    access: 'admin',
    handler: async ({ params }) => {
      const format = FORMATS[params.format as keyof typeof FORMATS]
      if (!format) throw new AppError(404, 'Not found')
      const file = await payoutBatchFile(params.batchId!, format)
      return new Response(file.content, {
        headers: {
          'Content-Type': format === 'xml' ? 'application/xml; charset=utf-8' : 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="${file.filename}"`,
          'Cache-Control': 'private, no-store',
        },
      })
    },
  },
})
export const loader = api.loader
export const action = api.action
