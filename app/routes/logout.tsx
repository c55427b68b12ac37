import { redirect } from 'react-router'
import { signOut } from '~/server/http/auth.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/logout'

export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.signOut })]

export async function action({ request, context }: Route.ActionArgs) {
  await signOut(request, context)
  return redirect('/')
}

export function loader() {
  return redirect('/')
}
