import { NotBuilt } from '~/components/not-built'
import type { Route } from './+types/listing'

export default function Screen() {
  return <NotBuilt title="Listing" />
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Listing · Forkmarket' }]
}
