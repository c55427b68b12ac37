import { getStorage, IMAGE_CACHE_CONTROL, isStorageKey } from '~/server/infra/storage.server'
import type { Route } from './+types/uploads'

// GET /uploads/<key>/<rendition>.webp: the listing images, from the object
// store (or local disk with STORAGE=local), so any instance serves any
// upload. Keys are random (or a hash of the content) and never rewritten, so
// a year of immutable caching is safe, in browsers and shared caches alike;
// ETag / If-None-Match spare the bytes when a cache revalidates anyway.
// Anything that is not an image key is a 404.
export async function loader({ params, request }: Route.LoaderArgs) {
  const key = params['*'] ?? ''
  if (!isStorageKey(key)) return notFound()
  const ifNoneMatch = request.headers.get('If-None-Match') ?? undefined
  const object = await getStorage().get(key, { ifNoneMatch })
  if (!object) return notFound()
  const headers = new Headers({
    'Cache-Control': IMAGE_CACHE_CONTROL,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cross-Origin-Resource-Policy': 'same-origin',
  })
  if ('notModified' in object) {
    if (object.etag && !object.etag.includes(',')) headers.set('ETag', object.etag)
    return new Response(null, { status: 304, headers })
  }
  headers.set('Content-Type', object.contentType)
  if (object.etag) headers.set('ETag', object.etag)
  if (object.lastModified) headers.set('Last-Modified', object.lastModified.toUTCString())
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
