import { redirect } from 'react-router'
import { isAppError } from '~/server/domain/errors.server'
import { completeInstallation, flowOriginRedirect, GITHUB_FLOW_RATE_LIMIT, GITHUB_PATHS } from '~/server/domain/github-accounts.server'
import { requireUser } from '~/server/http/auth.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import { appUrl } from '~/server/infra/env.server'
import { logEvent } from '~/server/infra/log.server'
import type { Route } from './+types/install-callback'

// GET /github/install/callback (the App's "Setup URL"): GitHub comes back here after the
// seller installed the App (?installation_id&setup_action&state[&code]). The installation is
// recorded only when the seller's own GitHub token shows it (github-delivery.server.ts).
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.tiny, rateLimit: GITHUB_FLOW_RATE_LIMIT })]

export async function loader({ request, context }: Route.LoaderArgs) {
  // Locally: back to the address (localhost or 127.0.0.1) the seller started at, where their session is.
  const home = flowOriginRedirect(request)
  if (home) return redirect(home)
  const user = await requireUser(request, context)
  try {
    const outcome = await completeInstallation({
      userId: user.id,
      params: new URL(request.url).searchParams,
      redirectUrl: `${appUrl(request)}${GITHUB_PATHS.oauthCallback}`,
    })
    if (outcome.kind === 'redirect') return redirect(outcome.url)
    return redirectWithToast(outcome.returnTo, { type: 'success', title: outcome.message })
  } catch (error) {
    if (!isAppError(error)) throw error
    logEvent('warn', 'github_install_callback_refused', { userId: user.id, status: error.status, message: error.message })
    return redirectWithToast('/seller/dashboard', { type: 'error', title: error.message })
  }
}
