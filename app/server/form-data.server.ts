import { data } from 'react-router'
import { MAX_IMAGE_BYTES, MAX_IMAGES } from '~/lib/listing-schema'

/** A listing post may carry up to MAX_IMAGES images of 5 MB each, plus the text fields. */
export const MAX_LISTING_BODY_BYTES = MAX_IMAGES * MAX_IMAGE_BYTES + 1024 * 1024

const UPLOAD_TOO_LARGE = 'The upload is too large (5MB each, at most 10 images)'

/**
 * Reads a body with a hard cap. A declared Content-Length over the cap is
 * refused before reading; a chunked body is counted as it streams and the
 * read fails at the cap, so a client can never make the server buffer more
 * than `maxBytes`.
 */
async function readCapped<T>(request: Request, maxBytes: number, read: (r: Request) => Promise<T>, what: string, tooLargeMessage: string): Promise<T> {
  const tooLarge = (): never => {
    throw data({ error: tooLargeMessage }, { status: 413 })
  }
  const declared = Number(request.headers.get('Content-Length'))
  if (Number.isFinite(declared) && declared > maxBytes) tooLarge()
  if (!request.body) return read(request)

  let received = 0
  let overflow = false
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength
        if (received > maxBytes) {
          overflow = true
          controller.error(new Error('body too large'))
        } else {
          controller.enqueue(chunk)
        }
      },
    }),
  )
  const limited = new Request(request.url, { method: request.method, headers: request.headers, body: counted, duplex: 'half' } as RequestInit)
  try {
    return await read(limited)
  } catch {
    if (overflow) tooLarge()
    throw data({ error: `The ${what} could not be read` }, { status: 400 })
  }
}

/** `request.formData()` (multipart or urlencoded) reading at most `maxBytes`. */
export function readFormData(request: Request, maxBytes = MAX_LISTING_BODY_BYTES): Promise<FormData> {
  return readCapped(request, maxBytes, (r) => r.formData(), 'form', UPLOAD_TOO_LARGE)
}

/** Every other form of the app (no files): at most 64 KB; a body that is not a form is a 400, not a 500. */
export function readSmallFormData(request: Request): Promise<FormData> {
  return readCapped(request, 64 * 1024, (r) => r.formData(), 'form', 'The form is too large')
}

/** The body as text, reading at most `maxBytes` (JSON API bodies). */
export function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return readCapped(request, maxBytes, (r) => r.text(), 'request body', 'The request body is too large')
}
