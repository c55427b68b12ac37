import { redirect } from 'react-router'
import { isAppError } from '~/server/domain/errors.server'
import { authorizeUrl, GITHUB_FLOW_RATE_LIMIT, GITHUB_PATHS } from '~/server/domain/github-accounts.server'
import { requireUser, safeRedirectPath } from '~/server/http/auth.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import { appUrl } from '~/server/infra/env.server'
import type { Route } from './+types/authorize'

// GET /github/authorize?returnTo=…: "Connect GitHub" for a buyer — on to the App's user
// authorization (OAuth), which comes back to /github/oauth/callback with the account's id.
// Writes nothing: the state it carries is signed for the signed-in user.
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.tiny, rateLimit: GITHUB_FLOW_RATE_LIMIT })]

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const returnTo = safeRedirectPath(new URL(request.url).searchParams.get('returnTo'), '/purchases')
  try {
    return redirect(authorizeUrl({ userId: user.id, returnTo, redirectUrl: `${appUrl(request)}${GITHUB_PATHS.oauthCallback}` }))
  } catch (error) {
    if (!isAppError(error)) throw error
    return redirectWithToast(returnTo, { type: 'error', title: error.message })
  }
}
