import { NotBuilt } from '~/components/not-built'
import type { Route } from './+types/purchase-success'

export default function Screen() {
  return <NotBuilt title="Purchase Successful" />
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Purchase Successful · Forkmarket' }]
}
