import { NotBuilt } from '~/components/not-built'
import type { Route } from './+types/marketplace'

export default function Screen() {
  return <NotBuilt title="Marketplace" />
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Marketplace · Forkmarket' }]
}
