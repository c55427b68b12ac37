/**
 * A local mail catcher for `npm start` and the tests: an SMTP server (the `smtp-server` package)
 * that accepts what the app sends, parses it with `mailparser` and keeps it, and a small inbox web
 * page on its own port. Nothing is relayed: no mail leaves the machine. docs/decisions/017.
 *
 * SMTP (`smtpUrl`, e.g. smtp://127.0.0.1:12125): plain SMTP, no STARTTLS; AUTH is optional and any
 * user/password is accepted (like a development relay); SIZE is advertised and enforced (552);
 * malformed sender or recipient addresses are refused (553), as a real server would.
 *
 * Web (`webUrl`, e.g. http://127.0.0.1:12126), for a person:
 *   GET  /                      the inbox, newest first (`?to=<address>` filters by recipient)
 *   GET  /messages/<id>         one message: its HTML (sandboxed, no scripts), plain text, headers
 *   GET  /messages/<id>/raw     its source
 *
 * JSON API, for tests (stable; the notifications tests use it):
 *   GET    /api/messages?to=<address>&wait=<ms>  → 200 { messages: CaughtMessage[] } newest first,
 *          without `raw`. `to` matches the envelope, To or Cc (case-insensitive). With `wait`
 *          (≤ 30000) the answer waits until at least one message matches or the time is up.
 *   GET    /api/messages/<id>                    → 200 CaughtMessage (with `raw`) | 404 { error }
 *   DELETE /api/messages?to=<address>            → 200 { deleted: number } (all without `to`)
 *   GET    /api/outage                           → 200 { on: boolean }
 *   POST   /api/outage  {"on": true|false}       → 200 { on }: while on, the SMTP server answers
 *          every new connection and every command of an open one with `421 4.3.2 Service not
 *          available` (a temporary failure: the sender must keep the mail and retry).
 *   Errors are 4xx JSON { error }.
 *
 * In the same process (integration tests) the returned MailEmulator offers the same: messages(),
 * waitForMessage(), clear(), setOutage().
 */
import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { simpleParser, type AddressObject } from 'mailparser'
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server'
import { listen, urlHost } from '../support/http.ts'
import { MailStore, type CaughtMessage } from './store.ts'
import { renderInbox, renderMessage, renderNotFound } from './views.ts'

export type { CaughtMessage } from './store.ts'

export interface MailEmulatorOptions {
  /** SMTP port; default 12125, 0 picks a free one. */
  smtpPort?: number
  /** Inbox web page and JSON API port; default 12126, 0 picks a free one. */
  webPort?: number
  /** Default '127.0.0.1' (the inbox shows sign-in links: keep it on this machine). */
  host?: string
  /** JSON file keeping the messages across restarts; omit to stay in memory. */
  dataFile?: string
  /** Largest message accepted, in bytes (SIZE); default 10 MiB. */
  maxMessageBytes?: number
  /** Messages kept (the oldest go first); default 1000. */
  maxMessages?: number
}

export interface MailEmulator {
  /** The app's SMTP_URL, e.g. 'smtp://127.0.0.1:12125'. */
  smtpUrl: string
  smtpPort: number
  /** The inbox page, e.g. 'http://127.0.0.1:12126'. */
  webUrl: string
  webPort: number
  /** Newest first; `to` as in the JSON API. */
  messages(filter?: { to?: string }): CaughtMessage[]
  /** Resolves with the newest message matching (already there or arriving); rejects after `timeoutMs` (default 5000). */
  waitForMessage(filter: { to?: string; subject?: string | RegExp }, timeoutMs?: number): Promise<CaughtMessage>
  /** Deletes every message (or those to `to`); returns how many went. */
  clear(filter?: { to?: string }): number
  /** Simulates an SMTP outage (421 to every connection and command) or ends it. */
  setOutage(on: boolean): void
  readonly outage: boolean
  close(): Promise<void>
}

export const DEFAULT_SMTP_PORT = 12125
export const DEFAULT_WEB_PORT = 12126
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024
const MAX_WAIT_MS = 30_000
const SERVER_NAME = 'mail.forkmarket.localhost'

/** A deliberately plain address check (what real servers refuse at RCPT TO): local@domain, no spaces or brackets. */
const ADDRESS = /^[^\s@<>()[\]\\,;:"]+@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i

export function isDeliverableAddress(address: string): boolean {
  return address.length <= 254 && ADDRESS.test(address)
}

function smtpError(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode })
}

const OUTAGE_MESSAGE = '4.3.2 Service not available (simulated outage), try again later'

export async function startMailEmulator(opts: MailEmulatorOptions = {}): Promise<MailEmulator> {
  if (process.env.NODE_ENV === 'production') {
    throw new Error(
      'Refusing to start the mail emulator with NODE_ENV=production: it delivers nothing. Set SMTP_URL to a real SMTP server.',
    )
  }
  const host = opts.host ?? '127.0.0.1'
  const maxBytes = opts.maxMessageBytes ?? DEFAULT_MAX_BYTES
  const store = MailStore.open(opts.dataFile, opts.maxMessages ?? 1000)
  const arrivals = new EventEmitter()
  arrivals.setMaxListeners(0)
  let outage = false

  const refuseDuringOutage = (callback: (err?: Error | null) => void): boolean => {
    if (!outage) return false
    callback(smtpError(421, OUTAGE_MESSAGE))
    return true
  }

  const smtp = new SMTPServer({
    name: SERVER_NAME,
    banner: 'Forkmarket local mail catcher (nothing is relayed)',
    size: maxBytes,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 1000,
    onConnect(_session, callback) {
      if (refuseDuringOutage(callback)) return
      callback()
    },
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anonymous' })
    },
    onMailFrom(address, _session, callback) {
      if (refuseDuringOutage(callback)) return
      // The null sender (<>) is allowed: bounces use it.
      if (address.address !== '' && !isDeliverableAddress(address.address)) {
        return callback(smtpError(553, `5.1.7 Sender address rejected: "${address.address}" is not a valid e-mail address`))
      }
      callback()
    },
    onRcptTo(address, _session, callback) {
      if (refuseDuringOutage(callback)) return
      if (!isDeliverableAddress(address.address)) {
        return callback(smtpError(553, `5.1.3 Recipient address rejected: "${address.address}" is not a valid e-mail address`))
      }
      callback()
    },
    onData(stream, session, callback) {
      receive(stream, session).then(
        (message) => {
          if (outage) return callback(smtpError(421, OUTAGE_MESSAGE))
          store.add(message)
          arrivals.emit('message', message)
          callback()
        },
        (error: Error) => callback(error),
      )
    },
  })
  // A client that drops the connection mid-session is not the catcher's problem.
  smtp.on('error', () => {})

  async function receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<CaughtMessage> {
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    if (stream.sizeExceeded) throw smtpError(552, `5.3.4 Message too big: the limit is ${maxBytes} bytes`)
    const raw = Buffer.concat(chunks)
    const parsed = await simpleParser(raw, { skipTextToHtml: true, skipImageLinks: true })
    const headerLines = parsed.headerLines.map(({ key, line }) => ({
      name: line.slice(0, line.indexOf(':')).trim() || key,
      value: line
        .slice(line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    }))
    const headers: Record<string, string> = {}
    for (const { name, value } of headerLines) {
      const key = name.toLowerCase()
      headers[key] = key in headers ? `${headers[key]}\n${value}` : value
    }
    const envelope = session.envelope
    return {
      id: randomUUID(),
      messageId: parsed.messageId ?? '',
      receivedAt: new Date().toISOString(),
      date: parsed.date ? parsed.date.toISOString() : null,
      envelope: {
        from: envelope.mailFrom ? envelope.mailFrom.address.toLowerCase() : '',
        to: envelope.rcptTo.map((r) => r.address.toLowerCase()),
      },
      from: addresses(parsed.from)[0] ?? '',
      to: addresses(parsed.to),
      cc: addresses(parsed.cc),
      subject: parsed.subject ?? '',
      text: parsed.text ?? null,
      html: typeof parsed.html === 'string' ? parsed.html : null,
      headers,
      headerLines,
      attachments: parsed.attachments.map((a) => ({ filename: a.filename ?? null, contentType: a.contentType, size: a.size })),
      size: raw.length,
      authUser: typeof session.user === 'string' ? session.user : null,
      raw: raw.toString('utf8'),
    }
  }

  function waitForMessage(filter: { to?: string; subject?: string | RegExp }, timeoutMs = 5000): Promise<CaughtMessage> {
    const matches = (m: CaughtMessage) =>
      store.list({ to: filter.to }).some((x) => x.id === m.id) &&
      (filter.subject === undefined || (typeof filter.subject === 'string' ? m.subject === filter.subject : filter.subject.test(m.subject)))
    const present = store.list({ to: filter.to }).find(matches)
    if (present) return Promise.resolve(present)
    return new Promise((resolve, reject) => {
      const onMessage = (m: CaughtMessage) => {
        if (!matches(m)) return
        clearTimeout(timer)
        arrivals.off('message', onMessage)
        resolve(m)
      }
      const timer = setTimeout(() => {
        arrivals.off('message', onMessage)
        reject(
          new Error(
            `No mail${filter.to ? ` to ${filter.to}` : ''}${filter.subject ? ` with subject ${String(filter.subject)}` : ''} arrived within ${timeoutMs} ms`,
          ),
        )
      }, timeoutMs)
      arrivals.on('message', onMessage)
    })
  }

  const web = createServer((req, res) => {
    handleWeb(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 400, { error: error instanceof Error ? error.message : String(error) })
      else res.destroy()
    })
  })

  async function handleWeb(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const path = url.pathname
    const method = req.method ?? 'GET'
    const to = url.searchParams.get('to') ?? undefined

    if (path === '/api/messages') {
      if (method === 'GET' || method === 'HEAD') {
        const wait = Math.min(Math.max(Number(url.searchParams.get('wait')) || 0, 0), MAX_WAIT_MS)
        if (wait > 0 && store.list({ to }).length === 0) await waitForMessage({ to }, wait).catch(() => undefined)
        return sendJson(res, 200, { messages: store.list({ to }).map(withoutRaw) })
      }
      if (method === 'DELETE') return sendJson(res, 200, { deleted: store.clear({ to }) })
      return sendJson(res, 405, { error: 'Use GET or DELETE.' }, { Allow: 'GET, HEAD, DELETE' })
    }
    const apiMessage = /^\/api\/messages\/([\w-]+)$/.exec(path)
    if (apiMessage) {
      if (method !== 'GET' && method !== 'HEAD') return sendJson(res, 405, { error: 'Use GET.' }, { Allow: 'GET, HEAD' })
      const message = store.get(apiMessage[1])
      return message ? sendJson(res, 200, message) : sendJson(res, 404, { error: 'No such message.' })
    }
    if (path === '/api/outage') {
      if (method === 'GET' || method === 'HEAD') return sendJson(res, 200, { on: outage })
      if (method !== 'POST') return sendJson(res, 405, { error: 'Use GET or POST.' }, { Allow: 'GET, HEAD, POST' })
      // JSON only: a cross-site page cannot send application/json without a CORS preflight (refused).
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return sendJson(res, 415, { error: 'Send JSON: {"on": true} or {"on": false}.' })
      }
      const body = await readBody(req)
      let parsed: unknown
      try {
        parsed = JSON.parse(body)
      } catch {
        return sendJson(res, 400, { error: 'The body is not JSON: send {"on": true} or {"on": false}.' })
      }
      const on = (parsed as { on?: unknown } | null)?.on
      if (typeof on !== 'boolean') return sendJson(res, 400, { error: '"on" must be true or false.' })
      outage = on
      return sendJson(res, 200, { on: outage })
    }
    if (path.startsWith('/api/')) return sendJson(res, 404, { error: 'Not found.' })

    // The person's pages. Forms post here (no JavaScript); a cross-site form is refused.
    if (method === 'POST') {
      if (req.headers['sec-fetch-site'] === 'cross-site')
        return sendHtml(res, 403, renderNotFound('Refused: a form on another site posted here.'))
      const form = new URLSearchParams(await readBody(req))
      if (path === '/delete') {
        store.clear()
        return redirect(res, '/')
      }
      if (path === '/outage') {
        outage = form.get('on') === 'true'
        return redirect(res, '/')
      }
      return sendHtml(res, 404, renderNotFound('Not found.'))
    }
    if (method !== 'GET' && method !== 'HEAD')
      return sendHtml(res, 405, renderNotFound('Method not allowed.'), { Allow: 'GET, HEAD, POST' })
    if (path === '/') return sendHtml(res, 200, renderInbox({ messages: store.list({ to }), to: to?.trim() ?? '', outage, smtpUrl }))
    const page = /^\/messages\/([\w-]+)(\/raw)?$/.exec(path)
    const message = page ? store.get(page[1]) : undefined
    if (page && message) {
      if (page[2]) return send(res, 200, 'text/plain; charset=utf-8', message.raw)
      return sendHtml(res, 200, renderMessage(message))
    }
    return sendHtml(res, 404, renderNotFound(page ? 'There is no such message (deleted, or the inbox was emptied).' : 'Not found.'))
  }

  const smtpPort = await listen(smtp.server, opts.smtpPort ?? DEFAULT_SMTP_PORT, host, 'Mail emulator (SMTP)')
  let webPort: number
  try {
    webPort = await listen(web, opts.webPort ?? DEFAULT_WEB_PORT, host, 'Mail emulator (web)')
  } catch (error) {
    await new Promise<void>((resolve) => smtp.close(() => resolve()))
    throw error
  }
  const shown = urlHost(host)
  const smtpUrl = `smtp://${shown}:${smtpPort}`
  const webUrl = `http://${shown}:${webPort}`

  let closing: Promise<void> | undefined
  return {
    smtpUrl,
    smtpPort,
    webUrl,
    webPort,
    messages: (filter) => store.list(filter),
    waitForMessage,
    clear: (filter) => store.clear(filter),
    setOutage(on) {
      outage = on
    },
    get outage() {
      return outage
    },
    close() {
      closing ??= Promise.all([
        new Promise<void>((resolve) => smtp.close(() => resolve())),
        new Promise<void>((resolve) => {
          web.close(() => resolve())
          web.closeAllConnections()
        }),
      ]).then(() => store.flush())
      return closing
    },
  }
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  if (!field) return []
  const list = Array.isArray(field) ? field : [field]
  const out: string[] = []
  const walk = (entries: AddressObject['value']) => {
    for (const entry of entries) {
      if (entry.address) out.push(entry.address.toLowerCase())
      if (entry.group) walk(entry.group)
    }
  }
  for (const item of list) walk(item.value)
  return out
}

function withoutRaw(message: CaughtMessage): Omit<CaughtMessage, 'raw'> {
  const { raw: _raw, ...rest } = message
  return rest
}

const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  // Mail HTML may show remote images; scripts stay blocked (the iframe is sandboxed too).
  'img-src data: http: https:',
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    ...headers,
  })
  res.end(res.req.method === 'HEAD' ? undefined : body)
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body), headers)
}

function sendHtml(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  send(res, status, 'text/html; charset=utf-8', body, { 'Content-Security-Policy': PAGE_CSP, ...headers })
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { Location: location, 'Cache-Control': 'no-store' }).end()
}

async function readBody(req: IncomingMessage, limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > limit) throw new Error('The body is too large.')
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}
