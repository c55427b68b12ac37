import { data } from 'react-router'
import { createThemeAction } from 'remix-themes'
import { themeSessionResolver } from '~/server/cookies.server'
import type { Route } from './+types/action.set-theme'

const themeAction = createThemeAction(themeSessionResolver)

// remix-themes reads `{ theme }` with request.json() and throws on anything
// else (a form post, `null`, bad JSON): a bad body is the client's error, a 400, not a 500.
export async function action(args: Route.ActionArgs) {
  let body: unknown
  try {
    body = await args.request.clone().json()
  } catch {
    return data({ error: 'Send the theme as JSON: { "theme": "light" | "dark" }' }, { status: 400 })
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return data({ error: 'Send the theme as JSON: { "theme": "light" | "dark" }' }, { status: 400 })
  }
  return themeAction(args)
}
