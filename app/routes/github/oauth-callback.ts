import { isAppError } from '~/server/domain/errors.server'
import { completeUserAuthorization, GITHUB_FLOW_RATE_LIMIT, GITHUB_PATHS } from '~/server/domain/github-accounts.server'
import { requireUser } from '~/server/http/auth.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import { appUrl } from '~/server/infra/env.server'
import { logEvent } from '~/server/infra/log.server'
import type { Route } from './+types/oauth-callback'

// GET /github/oauth/callback (the App's "Callback URL"): the App's user authorization came
// back (?code&state). A buyer's GitHub account (numeric id, login) is stored; a seller's
// installation is verified and recorded.
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.tiny, rateLimit: GITHUB_FLOW_RATE_LIMIT })]

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  try {
    const outcome = await completeUserAuthorization({
      userId: user.id,
      params: new URL(request.url).searchParams,
      redirectUrl: `${appUrl(request)}${GITHUB_PATHS.oauthCallback}`,
    })
    if (outcome.kind === 'redirect') return redirectWithToast(outcome.url, { type: 'info', title: 'Continue on GitHub' })
    return redirectWithToast(outcome.returnTo, { type: 'success', title: outcome.message })
  } catch (error) {
    if (!isAppError(error)) throw error
    logEvent('warn', 'github_oauth_callback_refused', { userId: user.id, status: error.status, message: error.message })
    return redirectWithToast('/purchases', { type: 'error', title: error.message })
  }
}
