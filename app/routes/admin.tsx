import { NotBuilt } from '~/components/not-built'
import { requireAdmin } from '~/server/auth.server'
import type { Route } from './+types/admin'

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context)
  return null
}

export default function Screen() {
  return <NotBuilt title="Admin Dashboard" />
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Admin Dashboard · Forkmarket' }]
}
