import { redirect } from 'react-router'
import { authContext } from '~/server/auth.server'
import type { Route } from './+types/logout'

export async function action({ context }: Route.ActionArgs) {
  // supabase-js clears the local session even when the provider answers 401/403/404.
  await context.get(authContext).supabase().auth.signOut({ scope: 'local' })
  return redirect('/')
}

export function loader() {
  return redirect('/')
}
