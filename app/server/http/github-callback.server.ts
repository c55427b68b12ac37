import { redirect, type RouterContextProvider } from 'react-router'
import { isAppError } from '../domain/errors.server.ts'
import { GITHUB_PATHS, type CallbackInput, type CallbackOutcome } from '../domain/github-accounts.server.ts'
import { appUrl } from '../infra/env.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { requireUser } from './auth.server.ts'
import { redirectWithToast } from './responses.server.ts'

/**
 * The answer of GitHub's two callback routes (the App's Setup URL and Callback URL): `complete` finishes
 * the signed-in user's flow; a next hop on GitHub is followed, a finished flow goes back where it began
 * with a toast, and a refusal goes to `fallback` with its reason (logged as `refusedEvent`).
 */
export async function answerGithubCallback(
  request: Request,
  context: Readonly<RouterContextProvider>,
  {
    complete,
    refusedEvent,
    fallback,
  }: { complete: (input: CallbackInput) => Promise<CallbackOutcome>; refusedEvent: string; fallback: string },
): Promise<Response> {
  const user = await requireUser(request, context)
  try {
    const outcome = await complete({
      userId: user.id,
      params: new URL(request.url).searchParams,
      redirectUrl: `${appUrl(request)}${GITHUB_PATHS.oauthCallback}`,
    })
    if (outcome.kind === 'redirect') return redirect(outcome.url)
    return redirectWithToast(outcome.returnTo, { type: 'success', title: outcome.message })
  } catch (error) {
    if (!isAppError(error)) throw error
    logEvent('warn', refusedEvent, { userId: user.id, status: error.status, message: error.message })
    return redirectWithToast(fallback, { type: 'error', title: error.message })
  }
}
