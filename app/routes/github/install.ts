import { redirect } from 'react-router'
import { isAppError } from '~/server/domain/errors.server'
import { GITHUB_FLOW_RATE_LIMIT, installUrl } from '~/server/domain/github-accounts.server'
import { requireUser, safeRedirectPath } from '~/server/http/auth.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import { appUrl } from '~/server/infra/env.server'
import type { Route } from './+types/install'

// GET /github/install?returnTo=…: "Connect GitHub" for a seller — on to the Forkmarket
// GitHub App's installation page (GitHub's, or the local emulator's consent page).
// Writes nothing: the state it carries is signed for the signed-in user.
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.tiny, rateLimit: GITHUB_FLOW_RATE_LIMIT })]

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const returnTo = safeRedirectPath(new URL(request.url).searchParams.get('returnTo'), '/seller/dashboard')
  try {
    return redirect(await installUrl(user.id, returnTo, appUrl(request)))
  } catch (error) {
    if (!isAppError(error)) throw error
    return redirectWithToast(returnTo, { type: 'error', title: error.message })
  }
}
