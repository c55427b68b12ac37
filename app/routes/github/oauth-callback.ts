import { completeUserAuthorization, GITHUB_FLOW_RATE_LIMIT } from '~/server/domain/github-accounts.server'
import { answerGithubCallback } from '~/server/http/github-callback.server'
import { BODY_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/oauth-callback'

// GET /github/oauth/callback (the App's "Callback URL"): the App's user authorization came
// back (?code&state). A buyer's GitHub account (numeric id, login) is stored; a seller's
// installation is verified and recorded.
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.tiny, rateLimit: GITHUB_FLOW_RATE_LIMIT })]

export async function loader({ request, context }: Route.LoaderArgs) {
  return answerGithubCallback(request, context, {
    complete: completeUserAuthorization,
    refusedEvent: 'github_oauth_callback_refused',
    fallback: '/purchases',
  })
}
