import { NotBuilt } from '~/components/not-built'
import { requireUser } from '~/server/auth.server'
import type { Route } from './+types/listing-create'

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context)
  return null
}

export default function Screen() {
  return <NotBuilt title="Create New Listing" />
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Create New Listing · Forkmarket' }]
}
