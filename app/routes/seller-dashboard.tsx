import { NotBuilt } from '~/components/not-built'
import { requireUser } from '~/server/auth.server'
import type { Route } from './+types/seller-dashboard'

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context)
  return null
}

export default function Screen() {
  return <NotBuilt title="Seller Dashboard" />
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Seller Dashboard · Forkmarket' }]
}
