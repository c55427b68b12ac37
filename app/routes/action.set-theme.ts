import { data } from 'react-router'
import { isTheme } from 'remix-themes'
import { themeSessionResolver } from '~/server/http/cookies.server'
import { readTextBody } from '~/server/http/form-data.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/action.set-theme'

export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.tiny, rateLimit: RATE_LIMITS.theme })]

const SEND_JSON = 'Send the theme as JSON: { "theme": "light" | "dark" }'

export function loader() {
  return data({ error: 'Method not allowed' }, { status: 405, headers: { Allow: 'POST' } })
}

// POST { theme } from remix-themes' ThemeProvider. The body is read within the
// route's limit (a 64 MB body is refused, not buffered); anything but a JSON
// object — a form post, `null`, bad JSON — is the client's error, a 400.
// Answers as remix-themes' own action does: no theme clears the cookie.
export async function action({ request, context }: Route.ActionArgs) {
  let body: unknown
  try {
    body = JSON.parse(await readTextBody(request, context))
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error
    return data({ error: SEND_JSON }, { status: 400 })
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return data({ error: SEND_JSON }, { status: 400 })
  const session = await themeSessionResolver(request)
  const { theme } = body as { theme?: unknown }
  if (!theme) return data({ success: true }, { headers: { 'Set-Cookie': await session.destroy() } })
  if (typeof theme !== 'string' || !isTheme(theme))
    return data({ success: false, message: `theme value of ${String(theme)} is not a valid theme.` })
  session.setTheme(theme)
  return data({ success: true }, { headers: { 'Set-Cookie': await session.commit() } })
}
