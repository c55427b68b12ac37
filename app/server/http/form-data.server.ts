import type { RouterContextProvider } from 'react-router'
import { formContainsInvalidText, INVALID_TEXT_MESSAGE } from './invalid-text.server.ts'
import { clientError } from './responses.server.ts'
import { bodyTooLarge, DEFAULT_BODY_LIMIT, refuseDeclaredOversize, routePolicyContext } from './route-policy.server.ts'

type Context = Readonly<RouterContextProvider>

/** The body limit the serving route declared (route-policy.server.ts). */
export function bodyLimitOf(context: Context): number {
  return context.get(routePolicyContext).bodyLimit ?? DEFAULT_BODY_LIMIT
}

/**
 * The one way the app reads a request body: at most `limit` bytes. A declared
 * Content-Length over the limit is refused before reading; a chunked body is
 * counted as it streams and reading stops at the limit — the rest is left
 * unread in the socket (not cancelled, which would reset the connection before
 * the 413 is sent), so a client can never make the server hold more than the
 * limit.
 */
async function readBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  refuseDeclaredOversize(request, limit)
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let received = 0
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>
    try {
      chunk = await reader.read()
    } catch {
      throw clientError(request, 400, 'The request body could not be read')
    }
    if (chunk.done) break
    received += chunk.value.byteLength
    if (received > limit) {
      reader.releaseLock()
      throw bodyTooLarge(request, limit)
    }
    chunks.push(chunk.value)
  }
  const bytes = new Uint8Array(received)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** The body as text, within the route's limit. */
export async function readTextBody(request: Request, context: Context): Promise<string> {
  return new TextDecoder().decode(await readBytes(request, bodyLimitOf(context)))
}

/**
 * The body as a form (multipart or urlencoded), within the route's limit. A
 * body that is not a form is a 400, and so is a field with invalid text
 * (invalid-text.server.ts), never a 500 further on.
 */
export async function readFormBody(request: Request, context: Context): Promise<FormData> {
  const bytes = await readBytes(request, bodyLimitOf(context))
  let form: FormData
  try {
    form = await new Response(bytes, { headers: { 'Content-Type': request.headers.get('Content-Type') ?? '' } }).formData()
  } catch {
    throw clientError(request, 400, 'The form could not be read')
  }
  if (formContainsInvalidText(form)) throw clientError(request, 400, INVALID_TEXT_MESSAGE)
  return form
}
