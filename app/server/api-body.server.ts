import { data } from 'react-router'
import { readBodyText, readSmallFormData } from './form-data.server.ts'

/**
 * The body of a write to /api/*: JSON (what the spec's client sends) or a
 * form post. Unreadable JSON is the client's mistake: a 400 `{ error }`, never
 * a 500. Returns a plain object (never an array or a primitive).
 */
export async function readApiBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get('Content-Type') ?? ''
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    return Object.fromEntries(await readSmallFormData(request))
  }
  const text = await readBodyText(request, 256 * 1024)
  if (!text.trim()) return {}
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw data({ error: 'The request body is not valid JSON' }, { status: 400 })
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw data({ error: 'The request body must be a JSON object' }, { status: 400 })
  }
  return body as Record<string, unknown>
}
