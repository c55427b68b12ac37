import type { MiddlewareFunction } from 'react-router'
import { clientError } from './responses.server.ts'

/**
 * Text PostgreSQL refuses: a NUL character (U+0000) cannot be stored in a
 * text column or compared with one ("invalid byte sequence for encoding
 * UTF8: 0x00"), so a NUL anywhere in a request's text would surface as a 500
 * from whichever query meets it first. Every request's path and query are
 * checked by invalidTextMiddleware, every body by the readers in
 * form-data.server.ts / api-body.server.ts: one rule, a 400 with this message.
 */
export const INVALID_TEXT_MESSAGE = 'The request contains a NUL character (U+0000), which is not allowed in text'

export function isInvalidText(value: string): boolean {
  return value.includes('\u0000')
}

/**
 * True when any string in a parsed JSON value (keys included) is invalid text. A loop over a
 * stack, not recursion: a body of 10,000 nested arrays overflowed the call stack (issue 26.2).
 */
export function containsInvalidText(value: unknown): boolean {
  const pending = [value]
  while (pending.length) {
    const next = pending.pop()
    if (typeof next === 'string') {
      if (isInvalidText(next)) return true
    } else if (Array.isArray(next)) {
      pending.push(...(next as unknown[]))
    } else if (next && typeof next === 'object') {
      for (const [key, inner] of Object.entries(next)) {
        if (isInvalidText(key)) return true
        pending.push(inner)
      }
    }
  }
  return false
}

/** True when a form field name, text value or file name is invalid text (file contents are not text). */
export function formContainsInvalidText(form: FormData): boolean {
  for (const [name, value] of form) {
    if (isInvalidText(name) || isInvalidText(typeof value === 'string' ? value : value.name)) return true
  }
  return false
}

function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname)
  } catch {
    // React Router keeps a segment it cannot decode as it is, so its raw text is what reaches a query.
    return pathname
  }
}

/** Root middleware: 400 for invalid text in the path (route params) or the query string. */
export const invalidTextMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const url = new URL(request.url)
  const query = [...url.searchParams].flat()
  if (isInvalidText(decodedPath(url.pathname)) || query.some(isInvalidText)) {
    throw clientError(request, 400, INVALID_TEXT_MESSAGE)
  }
  return next()
}
