import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { openLoop, type OpenLoopOptions } from './open-loop-worker.ts'

/** A server whose answers the test controls; it counts the connections it was ever opened. */
async function server(handler: http.RequestListener) {
  const s = http.createServer(handler)
  let connections = 0
  s.on('connection', () => connections++)
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const { port } = s.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => s.close(() => resolve())).finally(() => s.closeAllConnections()),
  }
}

const stops: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

const base = { order: 'rotate', headers: { Accept: 'application/json' }, drainS: 2 } satisfies Partial<OpenLoopOptions>

describe('the open-loop generator', () => {
  it('reads answers framed by Content-Length and chunked, and counts statuses', async () => {
    const s = await server((req, res) => {
      if (req.url === '/length') {
        res.writeHead(200, { 'Content-Length': 5 }).end('hello')
      } else if (req.url === '/chunked') {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.write('{"a":')
        setTimeout(() => res.end('1}'), 2)
      } else {
        res.writeHead(503, { 'Content-Length': 0 }).end()
      }
    })
    stops.push(s.close)
    const raw = await openLoop({
      ...base,
      baseUrl: s.baseUrl,
      paths: ['/length', '/chunked', '/busy'],
      rate: 300,
      durationS: 0.3,
      connections: 4,
    })
    expect(raw.scheduled).toBe(90)
    expect(raw.completed).toBe(90)
    expect(raw.statuses).toEqual({ 200: 60, 503: 30 })
    expect(raw.non2xx).toBe(30)
    expect(raw.errors + raw.timeouts).toBe(0)
    expect(raw.latenciesMs).toHaveLength(90)
  })

  it('keeps its fixed connections, and charges a stall to every request due during it (latency from the schedule)', async () => {
    let stallEnds: number | undefined
    const s = await server((_req, res) => {
      // The server stalls for 300 ms from the first request it gets: nothing is answered before then (counted from
      // the server's start, a slow start under load left less than the 250 ms the test expects; CI 2026-11-28).
      stallEnds ??= Date.now() + 300
      setTimeout(() => res.writeHead(200, { 'Content-Length': 2 }).end('ok'), Math.max(0, stallEnds - Date.now()))
    })
    stops.push(s.close)
    const raw = await openLoop({ ...base, baseUrl: s.baseUrl, paths: ['/'], rate: 100, durationS: 1, connections: 2 })
    expect(raw.completed).toBe(100)
    // Never more than its two connections, however far behind the server fell.
    expect(s.connections()).toBe(2)
    // The first request, due at once, waited out the stall; the ~30 due during it are charged what they waited
    // (a closed-loop client would have sent only two and measured two slow answers).
    expect(raw.latenciesMs.at(-1)).toBeGreaterThanOrEqual(250)
    expect(raw.latenciesMs.filter((ms) => ms >= 100).length).toBeGreaterThanOrEqual(15)
    // After the stall the schedule goes on: most requests are answered at once.
    expect(raw.latenciesMs[Math.floor(raw.latenciesMs.length / 2)]).toBeLessThan(100)
  })

  it('replaces a connection the server closes, and counts what is never answered as timeouts', async () => {
    const s = await server((req, res) => {
      if (req.url === '/close') res.writeHead(200, { 'Content-Length': 2, Connection: 'close' }).end('ok')
      else if (req.url === '/hang') res.writeHead(200, { 'Content-Length': 10 }).write('partial')
      else res.writeHead(200, { 'Content-Length': 2 }).end('ok')
    })
    stops.push(s.close)
    const raw = await openLoop({
      ...base,
      baseUrl: s.baseUrl,
      paths: ['/close', '/ok', '/hang'],
      rate: 50,
      durationS: 0.12,
      drainS: 0.3,
      connections: 3,
    })
    expect(raw.scheduled).toBe(6)
    expect(raw.completed).toBe(4)
    expect(raw.timeouts).toBe(2)
    expect(raw.latenciesMs).toHaveLength(6)
  })
})
