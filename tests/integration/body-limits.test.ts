import { describe, expect, it } from 'vitest'
import * as setTheme from '../../app/routes/action.set-theme.ts'
import * as webhook from '../../app/routes/api/stripe-webhook.ts'
import { BODY_LIMITS } from '../../app/server/http/route-policy.server.ts'
import { APP, callRoute } from '../support/call-route.ts'

/*
 * Issue 14.2: every endpoint refuses an oversized body with 413 (JSON on
 * /api/*) before buffering it — one mechanism (the route's declared limit,
 * app/server/http/route-policy.server.ts + form-data.server.ts), sized per route.
 * A declared Content-Length over the limit is refused before a byte is read;
 * a chunked body is counted as it streams and never read past the limit.
 */

const CHUNK = 64 * 1024

/** A chunked body of `total` bytes made on demand; `pulled()` says how much the server asked for. */
function streamedBody(total: number) {
  let produced = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (produced >= total) return controller.close()
      produced += CHUNK
      controller.enqueue(new Uint8Array(CHUNK).fill(0x7b))
    },
  })
  return { stream, pulled: () => produced }
}

function post(path: string, body: BodyInit, headers: Record<string, string>) {
  return new Request(`${APP}${path}`, { method: 'POST', headers: { Origin: APP, ...headers }, body, duplex: 'half' } as RequestInit)
}

const targets = [
  { name: 'POST /api/stripe/webhook', mod: webhook, path: '/api/stripe/webhook', limit: BODY_LIMITS.webhook, api: true },
  { name: 'POST /action/set-theme', mod: setTheme, path: '/action/set-theme', limit: BODY_LIMITS.tiny, api: false },
]

describe('oversized bodies are refused before they are buffered', () => {
  for (const target of targets) {
    it(`${target.name}: a declared Content-Length over the limit → 413, nothing read`, async () => {
      const { stream, pulled } = streamedBody(600 * 1024 * 1024)
      const response = await callRoute(
        target.mod,
        post(target.path, stream, { 'Content-Type': 'application/json', 'Content-Length': String(600 * 1024 * 1024) }),
      )
      expect(response.status).toBe(413)
      expect(response.headers.get('Connection')).toBe('close')
      if (target.api) expect(await response.json()).toEqual({ error: 'The request body is too large' })
      else expect(await response.text()).toContain('The request body is too large')
      // Only what the stream queues on its own before anyone reads (its high-water mark: one chunk).
      expect(pulled()).toBeLessThanOrEqual(CHUNK)
    })

    it(`${target.name}: a chunked body that grows past the limit → 413, read no further than the limit`, async () => {
      const { stream, pulled } = streamedBody(64 * 1024 * 1024)
      const response = await callRoute(target.mod, post(target.path, stream, { 'Content-Type': 'application/json' }))
      expect(response.status).toBe(413)
      if (target.api) expect(await response.json()).toEqual({ error: 'The request body is too large' })
      // The reader stops at the limit: at most the limit plus the chunk that crossed it (and one queued), not 64 MB.
      expect(pulled()).toBeLessThanOrEqual(target.limit + 2 * CHUNK)
    })

    it(`${target.name}: a body within the limit is still read`, async () => {
      const response = await callRoute(target.mod, post(target.path, '{"theme":"dark"}', { 'Content-Type': 'application/json' }))
      // The webhook refuses the unsigned event (400); the theme is set (200). Neither is a 413.
      expect(response.status).toBe(target.api ? 400 : 200)
    })
  }
})
