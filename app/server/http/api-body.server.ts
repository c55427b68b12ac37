import type { RouterContextProvider } from 'react-router'
import { readFormBody, readTextBody } from './form-data.server.ts'
import { containsInvalidText, INVALID_TEXT_MESSAGE } from './invalid-text.server.ts'
import { apiError } from './responses.server.ts'

/** 'json': only application/json (415 otherwise); 'json-or-form' (default): JSON, or a form post. */
export type ApiBodyFormat = 'json' | 'json-or-form'

/**
 * Deeper than any body the API takes (a listing's is 2): a deeper one is refused before code that
 * recurses over it (schemas, the Idempotency-Key's hash) meets it (issue 26.2).
 */
export const MAX_JSON_DEPTH = 32
export const TOO_DEEP_MESSAGE = 'The request body is nested too deeply'

/** Whether a parsed JSON value nests arrays and objects deeper than `max` (walked without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]]
  while (pending.length) {
    const [next, depth] = pending.pop()!
    if (next === null || typeof next !== 'object') continue
    if (depth >= max) return true
    for (const inner of Object.values(next)) pending.push([inner, depth + 1])
  }
  return false
}

const isForm = (type: string) => /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)

/**
 * The body of a write to /api/*: JSON (what the spec's client sends) or a
 * form post, read within the route's declared body limit. Unreadable JSON and
 * invalid text are the client's mistake: a 400 `{ error }`, never a 500.
 * Returns a plain object (never an array or a primitive).
 */
export async function readApiBody(
  request: Request,
  context: Readonly<RouterContextProvider>,
  accepts: ApiBodyFormat = 'json-or-form',
): Promise<Record<string, unknown>> {
  const type = request.headers.get('Content-Type') ?? ''
  if (accepts === 'json' && !/^application\/json\b/i.test(type)) {
    throw apiError(415, 'Send the body as JSON (Content-Type: application/json)')
  }
  if (isForm(type)) {
    return Object.fromEntries(await readFormBody(request, context))
  }
  const text = await readTextBody(request, context)
  if (!text.trim()) return {}
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw apiError(400, 'The request body is not valid JSON')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw apiError(400, 'The request body must be a JSON object')
  if (nestedDeeperThan(body, MAX_JSON_DEPTH)) throw apiError(400, TOO_DEEP_MESSAGE)
  if (containsInvalidText(body)) throw apiError(400, INVALID_TEXT_MESSAGE)
  return body as Record<string, unknown>
}
