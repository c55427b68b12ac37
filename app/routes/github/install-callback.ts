import { redirect } from 'react-router'
import { completeInstallation, flowOriginRedirect, GITHUB_FLOW_RATE_LIMIT } from '~/server/domain/github-accounts.server'
import { answerGithubCallback } from '~/server/http/github-callback.server'
import { BODY_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/install-callback'

// GET /github/install/callback (the App's "Setup URL"): GitHub comes back here after the
// seller installed the App (?installation_id&setup_action&state[&code]). The installation is
// recorded only when the seller's own GitHub token shows it (github-accounts.server.ts).
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.tiny, rateLimit: GITHUB_FLOW_RATE_LIMIT })]

export async function loader({ request, context }: Route.LoaderArgs) {
  // Locally: back to the address (localhost or 127.0.0.1) the seller started at, where their session is.
  const home = flowOriginRedirect(request)
  if (home) return redirect(home)
  return answerGithubCallback(request, context, {
    complete: completeInstallation,
    refusedEvent: 'github_install_callback_refused',
    fallback: '/seller/dashboard',
  })
}
