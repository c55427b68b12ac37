import { data, Form, redirect, useNavigation } from 'react-router'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { z } from '~/lib/zod'
import { authContext, getOptionalUser, safeRedirectPath } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import { appUrl } from '~/server/infra/env.server'
import { logSecurityEvent } from '~/server/infra/log.server'
import type { Route } from './+types/login'

export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.signIn, csp: 'sign-in' })]

const SignInSchema = z.object({
  provider: z.enum(['google', 'github']),
  redirectTo: z.string().optional(),
})

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  if (await getOptionalUser(context)) throw redirect('/')
  return {
    redirectTo: safeRedirectPath(url.searchParams.get('redirectTo'), '/'),
    error: url.searchParams.get('error'),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = SignInSchema.safeParse(Object.fromEntries(await readFormBody(request, context)))
  if (!parsed.success) return data({ error: 'Choose Google or GitHub to sign in.' }, { status: 400 })
  const next = safeRedirectPath(parsed.data.redirectTo, '/')
  const callback = `${appUrl(request)}/auth/callback?${new URLSearchParams({ next })}`
  const { data: oauth, error } = await context
    .get(authContext)
    .supabase()
    .auth.signInWithOAuth({ provider: parsed.data.provider, options: { redirectTo: callback, skipBrowserRedirect: true } })
  if (error || !oauth.url) {
    logSecurityEvent('sign_in_failed', request, { provider: parsed.data.provider, reason: error?.message })
    return data({ error: 'Sign-in is unavailable right now. Please try again.' }, { status: 502 })
  }
  // The PKCE verifier cookie set by the client travels on this redirect (auth middleware).
  return redirect(oauth.url)
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const error =
    actionData?.error ??
    (loaderData.error === 'suspended'
      ? 'This account is suspended. Contact support if you think this is a mistake.'
      : loaderData.error
        ? 'Sign-in did not complete. Please try again.'
        : null)
  return (
    <div className="mx-auto flex max-w-sm flex-col gap-6 px-4 py-16">
      <div className="text-center">
        <h1 className="text-2xl font-semibold tracking-tight">Sign in to Forkmarket</h1>
        <p className="mt-2 text-sm text-muted-foreground">Buy, sell and receive apps as forks. Use the account you code with.</p>
      </div>
      {error ? (
        <Alert variant="destructive">
          <AlertTitle>Error</AlertTitle>
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      {(['google', 'github'] as const).map((provider) => (
        <Form method="post" key={provider}>
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <Button type="submit" name="provider" value={provider} variant="outline" size="lg" className="w-full" disabled={busy}>
            {provider === 'google' ? 'Sign in with Google' : 'Sign in with GitHub'}
          </Button>
        </Form>
      ))}
      <p className="text-center text-xs text-muted-foreground">
        By signing in you agree to the{' '}
        <a className="underline" href="/terms">
          Terms of Service
        </a>{' '}
        and the{' '}
        <a className="underline" href="/privacy">
          Privacy Policy
        </a>
        .
      </p>
    </div>
  )
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Sign in · Forkmarket' }]
}
