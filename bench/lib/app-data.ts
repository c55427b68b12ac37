import { readFileSync } from 'node:fs'
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from 'react-router'

/**
 * What the app's loaders answer an anonymous visitor, read once at startup by the page floors
 * (F: the page's React tree alone; G: the same route modules under React Router's own handler) —
 * and, for floor G's signed-in pages (issue 28.3), what they answer the run's signed-in buyer.
 */
export type RouteData = Record<string, unknown>

/** Waits until the app started beside the floor answers its health check. */
export async function waitForApp(appUrl: string, floor: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    const up = await fetch(new URL('/healthz', appUrl)).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return
    if (tries > 600) throw new Error(`${floor}: the app at ${appUrl} did not start`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** Each matched route's loader data for a URL (single fetch: `/marketplace.data?…`, `/listing/x.data`), decoded by React Router. */
export async function loadFromApp(appUrl: string, path: string, cookie?: string): Promise<Record<string, RouteData>> {
  const url = new URL(path, appUrl)
  url.pathname = `${url.pathname}.data`
  const response = await fetch(url, { headers: { Accept: '*/*', ...(cookie ? { Cookie: cookie } : {}) } })
  if (!response.ok || !response.body) throw new Error(`GET ${url} answered ${response.status}`)
  const decoded = await decodeViaTurboStream(response.body, globalThis)
  await decoded.done
  const result: Record<string, RouteData> = {}
  for (const [id, value] of Object.entries(decoded.value as Record<string, { data?: RouteData; error?: unknown }>)) {
    if (!value || !('data' in value)) throw new Error(`GET ${url}: no data for route ${id}`)
    result[id] = value.data!
  }
  return result
}

/** The data of every path in the floor's paths file (a JSON array), eight at a time; with a cookie, as that visitor sees them. */
export async function loadAllFromApp(
  appUrl: string,
  pathsFile: string | undefined,
  cookie?: string,
): Promise<Map<string, Record<string, RouteData>>> {
  const paths: string[] = pathsFile ? JSON.parse(readFileSync(pathsFile, 'utf8')) : []
  const data = new Map<string, Record<string, RouteData>>()
  const queue = [...paths]
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) data.set(path, await loadFromApp(appUrl, path, cookie))
    }),
  )
  return data
}
