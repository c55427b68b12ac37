import { z } from '~/lib/zod'
import { answer, AuditLogEntrySchema } from '~/server/api/api-answers.server'
import { apiRoute } from '~/server/api/api-route.server'
import { listAuditLog } from '~/server/domain/admin.server'

// GET /api/admin/audit-log: the latest 100 audit entries (who, when, what, from → to, why).
const api = apiRoute({
  GET: {
    summary: 'The latest 100 audit entries',
    tags: ['Admin'],
    answers: { 200: z.array(AuditLogEntrySchema) },
    access: 'admin',
    handler: async () => answer(z.array(AuditLogEntrySchema), await listAuditLog()),
  },
})
export const loader = api.loader
export const action = api.action
