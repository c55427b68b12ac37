import { redirect } from 'react-router'
import { signOut } from '~/server/auth.server'
import type { Route } from './+types/logout'

export async function action({ request, context }: Route.ActionArgs) {
  await signOut(request, context)
  return redirect('/')
}

export function loader() {
  return redirect('/')
}
