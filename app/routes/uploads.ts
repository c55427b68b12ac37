import { getStorage, isStorageKey } from '~/server/infra/storage.server'
import type { Route } from './+types/uploads'

// GET /uploads/<key>/<rendition>.webp: the listing images, from local disk or
// the storage bucket. Keys are random and never rewritten, so a year of
// immutable caching is safe. Anything that is not an image key is a 404.
export async function loader({ params, request }: Route.LoaderArgs) {
  const key = params['*'] ?? ''
  if (!isStorageKey(key)) return notFound()
  const object = await getStorage().get(key)
  if (!object) return notFound()
  const headers = new Headers({
    'Content-Type': object.contentType,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cross-Origin-Resource-Policy': 'same-origin',
  })
  if (object.size !== undefined) headers.set('Content-Length', String(object.size))
  if (request.method === 'HEAD') {
    await object.body.cancel()
    return new Response(null, { headers })
  }
  return new Response(object.body, { headers })
}

function notFound() {
  return new Response('Not found', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' },
  })
}
