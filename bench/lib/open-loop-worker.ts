/**
 * An open-loop load generator (issue 20): sends requests at a fixed rate on a
 * fixed schedule — request i is due at start + i / rate — whether or not
 * earlier responses have arrived, and measures each latency from the request's
 * *scheduled* time to the end of its response. A server that stalls therefore
 * pays for every request that should have been sent meanwhile (no coordinated
 * omission: a closed-loop client would simply send less while it waits).
 *
 * Like wrk2, it keeps a fixed number of keep-alive connections, all opened
 * before the schedule starts: a request due while every connection is busy
 * waits in the generator's queue (first come, first served) and that wait
 * counts in its latency. It does not open more connections as latency rises
 * (the server would then pay for connection set-up and ever more concurrent
 * requests exactly when it is behind), and it speaks HTTP/1.1 over `node:net`
 * with the requests' bytes built once, so that it costs the shared cores a
 * fraction of what `node:http`'s client does (docs/decisions/025).
 *
 * Run as its own process (`node --import tsx bench/lib/open-loop-worker.ts`) so
 * the harness's event loop cannot delay the schedule; the options come as JSON in
 * OPEN_LOOP_OPTIONS and the result is printed as one line `OPEN_LOOP_JSON {…}`.
 */
import net from 'node:net'

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
  /** Keep-alive connections, opened before the schedule starts and never more; a request due while all are busy waits (and that wait counts). */
  connections: number
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
  /** The generator's own CPU time (user + system) per request answered, ms: what it took from the cores it shares with the server. */
  generatorCpuMsPerRequest: number
  elapsedS: number
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

const CRLF = Buffer.from('\r\n')
const HEADERS_END = Buffer.from('\r\n\r\n')

/**
 * Reads HTTP/1.1 responses off one connection: the status, then a body framed by
 * Content-Length or chunked transfer coding. Calls onResponse(status) at the end of each.
 */
class ResponseReader {
  private buffer: Buffer = Buffer.alloc(0)
  private status = 0
  /** 'head': waiting for the headers; 'length': `remaining` body bytes to skip; 'chunk-size', 'chunk-data', 'trailer': chunked. */
  private state: 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'trailer' = 'head'
  private remaining = 0
  /** The server said `Connection: close`: the connection ends after this response. */
  closing = false

  constructor(private readonly onResponse: (status: number) => void) {}

  push(data: Buffer) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data
    let offset = 0
    for (;;) {
      if (this.state === 'head') {
        const end = this.buffer.indexOf(HEADERS_END, offset)
        if (end === -1) break
        const head = this.buffer.toString('latin1', offset, end)
        offset = end + 4
        this.status = Number(head.slice(9, 12))
        const lower = head.toLowerCase()
        this.closing = /\r\nconnection:[ \t]*close/.test(lower)
        const length = /\r\ncontent-length:[ \t]*(\d+)/.exec(lower)
        if (/\r\ntransfer-encoding:[^\r]*chunked/.test(lower)) this.state = 'chunk-size'
        else if (length) {
          this.remaining = Number(length[1])
          this.state = 'length'
        } else {
          // 1xx, 204, 304 or no body framing we send requests for: the response ends with its head.
          this.done()
        }
      } else if (this.state === 'length') {
        const take = Math.min(this.remaining, this.buffer.length - offset)
        offset += take
        this.remaining -= take
        if (this.remaining > 0) break
        this.done()
      } else if (this.state === 'chunk-size') {
        const end = this.buffer.indexOf(CRLF, offset)
        if (end === -1) break
        const size = Number.parseInt(this.buffer.toString('latin1', offset, end), 16)
        offset = end + 2
        if (size === 0) this.state = 'trailer'
        else {
          this.remaining = size + 2 // the chunk and its CRLF
          this.state = 'chunk-data'
        }
      } else if (this.state === 'chunk-data') {
        const take = Math.min(this.remaining, this.buffer.length - offset)
        offset += take
        this.remaining -= take
        if (this.remaining > 0) break
        this.state = 'chunk-size'
      } else {
        // After the last chunk: trailer lines, then an empty line.
        const end = this.buffer.indexOf(CRLF, offset)
        if (end === -1) break
        const empty = end === offset
        offset = end + 2
        if (empty) this.done()
      }
    }
    this.buffer = offset >= this.buffer.length ? Buffer.alloc(0) : this.buffer.subarray(offset)
  }

  private done() {
    this.state = 'head'
    this.onResponse(this.status)
  }

  reset() {
    this.buffer = Buffer.alloc(0)
    this.state = 'head'
    this.closing = false
  }
}

interface Connection {
  socket: net.Socket
  reader: ResponseReader
  /** Due time of the request in flight on it, or null when idle. */
  inFlight: number | null
}

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopRaw> {
  const url = new URL(options.baseUrl)
  const host = url.hostname
  const port = Number(url.port || 80)
  const total = Math.max(1, Math.round(options.rate * options.durationS))
  const intervalMs = 1000 / options.rate
  const headerLines = Object.entries({ Host: url.host, ...options.headers, Connection: 'keep-alive' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  const requests = options.paths.map((p) => Buffer.from(`GET ${p} HTTP/1.1\r\n${headerLines}\r\n`, 'latin1'))
  let counter = 0
  const nextRequest = () =>
    options.order === 'random' ? requests[Math.floor(Math.random() * requests.length)]! : requests[counter++ % requests.length]!

  const latencies: number[] = []
  const lags: number[] = []
  let completed = 0
  let non2xx = 0
  const statuses: Record<string, number> = {}
  let errors = 0
  let sent = 0
  let stopping = false
  /** Due times of requests waiting for a free connection, oldest first. */
  const queue: number[] = []
  let queueHead = 0
  /** Free connections, least recently used first (each is reused in turn, so none sits idle past a server's keep-alive timeout). */
  const idle: Connection[] = []
  /** The open connections (one closed by the server is replaced by a new one). */
  const open = new Set<Connection>()

  const dispatch = (connection: Connection, dueAt: number) => {
    connection.inFlight = dueAt
    connection.socket.write(nextRequest())
  }
  const free = (connection: Connection) => {
    connection.inFlight = null
    if (queueHead < queue.length) dispatch(connection, queue[queueHead++]!)
    else idle.push(connection)
  }

  const connect = (): Promise<Connection> =>
    new Promise((resolve, reject) => {
      const socket = net.connect({ host, port, noDelay: true })
      const connection: Connection = {
        socket,
        inFlight: null,
        reader: new ResponseReader((status) => {
          const dueAt = connection.inFlight
          if (dueAt === null) return
          completed++
          statuses[status] = (statuses[status] ?? 0) + 1
          if (status < 200 || status >= 400) non2xx++
          latencies.push(performance.now() - dueAt)
          connection.inFlight = null
          if (!connection.reader.closing) free(connection)
        }),
      }
      socket.on('data', (data: Buffer) => connection.reader.push(data))
      socket.once('connect', () => {
        open.add(connection)
        resolve(connection)
      })
      socket.on('error', () => {})
      socket.once('close', () => {
        // A request cut off by the connection's end is an error; the connection is replaced (not added to).
        open.delete(connection)
        const lost = connection.inFlight
        connection.inFlight = null
        const at = idle.indexOf(connection)
        if (at !== -1) idle.splice(at, 1)
        if (lost !== null) errors++
        if (stopping) return
        connect().then(free, () => {
          errors++
          // Nothing listens any more: what is still queued can never be sent.
        })
      })
      socket.once('error', reject)
    })

  idle.push(...(await Promise.all(Array.from({ length: Math.max(1, options.connections) }, () => connect()))))

  const start = performance.now()
  const cpuBefore = process.cpuUsage()
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now()
      // Every request due by now goes out now (or joins the queue when every connection is busy).
      while (sent < total && start + sent * intervalMs <= now) {
        const dueAt = start + sent * intervalMs
        lags.push(now - dueAt)
        sent++
        const connection = idle.shift()
        if (connection) dispatch(connection, dueAt)
        else queue.push(dueAt)
      }
      if (sent >= total) return resolve()
      // Sleep until the next request is due. setTimeout is coarse (it may fire up to ~1 ms late; the loop above
      // then sends everything due, and the lateness counts in the latencies and in sendLag). No busy-waiting
      // with setImmediate: spinning to be on time to the microsecond took a third of a core at 373 req/s,
      // from the two the server shares with the generator.
      setTimeout(tick, Math.max(1, start + sent * intervalMs - performance.now()))
    }
    tick()
  })
  const outstanding = () => queue.length - queueHead + [...open].filter((c) => c.inFlight !== null).length
  const drainUntil = performance.now() + options.drainS * 1000
  while (outstanding() > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 20))
  const end = performance.now()
  const cpu = process.cpuUsage(cpuBefore)
  const elapsedS = (end - start) / 1000
  // Still unanswered (in flight or never sent): timeouts, and in the latencies at what they have waited so far
  // (a lower bound), not left out.
  let timeouts = 0
  for (const dueAt of queue.slice(queueHead)) {
    timeouts++
    latencies.push(end - dueAt)
  }
  stopping = true
  for (const connection of [...open]) {
    if (connection.inFlight !== null) {
      timeouts++
      latencies.push(end - connection.inFlight)
      connection.inFlight = null
    }
    connection.socket.destroy()
  }
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
    generatorCpuMsPerRequest: completed ? (cpu.user + cpu.system) / 1000 / completed : 0,
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
    generatorCpuMsPerRequest: r(raw.generatorCpuMsPerRequest * 100) / 100,
  }
  process.stdout.write(`OPEN_LOOP_JSON ${JSON.stringify(summary)}\n`)
  process.exit(0)
}
