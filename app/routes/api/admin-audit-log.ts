import { apiRoute } from '~/server/api/api-route.server'
import { listAuditLog } from '~/server/domain/admin.server'

// GET /api/admin/audit-log: the latest 100 audit entries (who, when, what, from → to, why).
const api = apiRoute({ GET: { access: 'admin', handler: () => listAuditLog() } })
export const loader = api.loader
export const action = api.action
