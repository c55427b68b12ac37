import { data } from 'react-router'
import { requireUser } from '~/server/auth.server'
import type { Route } from './+types/users-sync'

// POST /api/users/sync (spec §7). The record is keyed on the verified token's
// user: ids or e-mails in the body are ignored, so nobody can sync as someone else.
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return data({ error: 'Method not allowed' }, { status: 405 })
  const user = await requireUser(request, context)
  return data(user)
}
