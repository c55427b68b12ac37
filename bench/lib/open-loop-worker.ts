/**
 * An open-loop load generator (issue 20): sends requests at a fixed rate on a
 * fixed schedule — request i is due at start + i / rate — whether or not
 * earlier responses have arrived, and measures each latency from the request's
 * *scheduled* time to the end of its response. A server that stalls therefore
 * pays for every request that should have been sent meanwhile (no coordinated
 * omission: a closed-loop client would simply send less while it waits).
 *
 * Run as its own process (`node --import tsx bench/lib/open-loop-worker.ts`) so
 * the harness's event loop cannot delay the schedule; the options come as JSON in
 * OPEN_LOOP_OPTIONS and the result is printed as one line `OPEN_LOOP_JSON {…}`.
 */
import http from 'node:http'

export interface OpenLoopOptions {
  baseUrl: string
  paths: string[]
  order: 'rotate' | 'random'
  headers: Record<string, string>
  /** Requests per second, fixed. */
  rate: number
  durationS: number
  /** How long to wait for the last responses after the schedule ends; a request still open then is a timeout. */
  drainS: number
  /** Most sockets open at once; a request due while all are busy waits (and that wait counts in its latency). */
  maxSockets: number
}

export interface OpenLoopRaw {
  scheduled: number
  completed: number
  non2xx: number
  /** Responses by status code (an overloaded server may shed load: 503, or 500 when its pool times out). */
  statuses: Record<string, number>
  errors: number
  timeouts: number
  /** Latencies from the scheduled time, ms, sorted. */
  latenciesMs: number[]
  /** How late the generator itself sent, at worst and at p99 (ms): a late generator would hide the server's latency. */
  sendLagMaxMs: number
  sendLagP99Ms: number
  elapsedS: number
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopRaw> {
  const url = new URL(options.baseUrl)
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets, maxFreeSockets: options.maxSockets })
  const total = Math.max(1, Math.round(options.rate * options.durationS))
  const intervalMs = 1000 / options.rate
  const latencies: number[] = []
  const lags: number[] = []
  let completed = 0
  let non2xx = 0
  const statuses: Record<string, number> = {}
  let errors = 0
  let sent = 0
  // Due times of the requests still waiting for their response.
  const pending = new Set<{ dueAt: number }>()
  let counter = 0
  const nextPath = () =>
    options.order === 'random'
      ? options.paths[Math.floor(Math.random() * options.paths.length)]!
      : options.paths[counter++ % options.paths.length]!

  const start = performance.now()
  const send = (dueAt: number) => {
    const entry = { dueAt }
    pending.add(entry)
    const fail = () => {
      if (pending.delete(entry)) errors++
    }
    const request = http.request(
      { host: url.hostname, port: url.port, path: nextPath(), method: 'GET', headers: options.headers, agent },
      (response) => {
        response.on('data', () => {})
        response.on('end', () => {
          if (!pending.delete(entry)) return
          completed++
          statuses[response.statusCode!] = (statuses[response.statusCode!] ?? 0) + 1
          if (response.statusCode! < 200 || response.statusCode! >= 400) non2xx++
          latencies.push(performance.now() - dueAt)
        })
        response.on('error', fail)
      },
    )
    request.on('error', fail)
    request.end()
  }

  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now()
      // Every request due by now goes out now, however many that is.
      while (sent < total && start + sent * intervalMs <= now) {
        const dueAt = start + sent * intervalMs
        lags.push(now - dueAt)
        sent++
        send(dueAt)
      }
      if (sent >= total) return resolve()
      const wait = start + sent * intervalMs - performance.now()
      // setTimeout is coarse (≥ 1 ms); the loop above catches up on anything it oversleeps.
      if (wait > 1.5) setTimeout(tick, wait - 1)
      else setImmediate(tick)
    }
    tick()
  })
  const drainUntil = performance.now() + options.drainS * 1000
  while (pending.size > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 20))
  const end = performance.now()
  const elapsedS = (end - start) / 1000
  // Still unanswered: timeouts, and in the latencies at what they have waited so far (a lower bound), not left out.
  const timeouts = pending.size
  for (const { dueAt } of pending) latencies.push(end - dueAt)
  agent.destroy()
  latencies.sort((a, b) => a - b)
  lags.sort((a, b) => a - b)
  return {
    scheduled: total,
    completed,
    non2xx,
    statuses,
    errors,
    timeouts,
    latenciesMs: latencies,
    sendLagMaxMs: lags.at(-1) ?? 0,
    sendLagP99Ms: percentile(lags, 99),
    elapsedS,
  }
}

export { percentile }

if (process.env.OPEN_LOOP_OPTIONS) {
  const options = JSON.parse(process.env.OPEN_LOOP_OPTIONS) as OpenLoopOptions
  const raw = await openLoop(options)
  const r = (x: number) => Math.round(x * 100) / 100
  const summary = {
    ...raw,
    latenciesMs: undefined,
    p50Ms: r(percentile(raw.latenciesMs, 50)),
    p90Ms: r(percentile(raw.latenciesMs, 90)),
    p99Ms: r(percentile(raw.latenciesMs, 99)),
    maxMs: r(raw.latenciesMs.at(-1) ?? Number.NaN),
    sendLagMaxMs: r(raw.sendLagMaxMs),
    sendLagP99Ms: r(raw.sendLagP99Ms),
  }
  process.stdout.write(`OPEN_LOOP_JSON ${JSON.stringify(summary)}\n`)
  process.exit(0)
}
