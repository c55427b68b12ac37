import { redirect } from 'react-router'
import { recordProviderGithubIdentity } from '~/server/domain/github-accounts.server'
import { isSuspended } from '~/server/domain/suspensions.server'
import { displayNameFor, syncUser } from '~/server/domain/users.server'
import { authContext, safeRedirectPath } from '~/server/http/auth.server'
import { logSecurityEvent } from '~/server/infra/log.server'
import type { Route } from './+types/auth-callback'

// The identity provider returns here with ?code=… (PKCE): exchange it for a
// session (cookies), sync the product user, and go where the user was going.
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const next = safeRedirectPath(url.searchParams.get('next'), '/')
  const code = url.searchParams.get('code')
  const failed = (reason: string) => {
    logSecurityEvent('sign_in_failed', request, { reason })
    return redirect(`/login?${new URLSearchParams({ error: 'callback', redirectTo: next })}`)
  }
  if (!code) return failed(url.searchParams.get('error_description') ?? 'missing code')

  const supabase = context.get(authContext).supabase()
  const { data, error } = await supabase.auth.exchangeCodeForSession(code)
  if (error || !data.user?.email) return failed(error?.message ?? 'no user')

  const meta = data.user.user_metadata ?? {}
  try {
    await syncUser({
      id: data.user.id,
      email: data.user.email,
      displayName: displayNameFor(data.user.email, meta.full_name ?? meta.name),
      avatarUrl: meta.avatar_url || null,
      preferredUsername: meta.user_name ?? meta.preferred_username ?? null,
    })
    // Signed in with GitHub: the buyer's GitHub account (numeric id) for delivery by invitation (issue 16).
    await recordProviderGithubIdentity(data.user.id, data.user.identities)
  } catch (syncError) {
    // Spec: a failed sync is logged and does not block the page; the next request retries it.
    console.error('Failed to sync user:', syncError instanceof Error ? syncError.message : syncError)
  }
  // Issue 30: a suspended account does not sign in (its session is ended here, and refused on every request).
  if (await isSuspended(data.user.id)) {
    logSecurityEvent('sign_in_refused', request, { reason: 'suspended', userId: data.user.id })
    await supabase.auth.signOut({ scope: 'local' })
    return redirect(`/login?${new URLSearchParams({ error: 'suspended' })}`)
  }
  return redirect(next)
}
