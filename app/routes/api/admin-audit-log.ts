import { listAuditLog } from '~/server/admin.server'
import { apiRoute } from '~/server/api-route.server'

// GET /api/admin/audit-log: the latest 100 audit entries (who, when, what, from → to, why).
const api = apiRoute({ GET: { access: 'admin', handler: () => listAuditLog() } })
export const loader = api.loader
export const action = api.action
