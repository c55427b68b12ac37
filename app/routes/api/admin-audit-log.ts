import { requireAdmin } from '~/server/auth.server'
import { listAuditLog } from '~/server/admin.server'
import type { Route } from './+types/admin-audit-log'

// GET /api/admin/audit-log: the latest 100 audit entries (who, when, what, from → to, why).
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context)
  return listAuditLog()
}
