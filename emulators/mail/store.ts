/**
 * The mail catcher's messages: kept in memory, newest first, and optionally mirrored to a JSON
 * file after every change (like the other emulators' dataFile), so `npm start` keeps the inbox
 * across restarts. The oldest messages are dropped past `limit`.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** One caught message, as `GET /api/messages` returns it (stable: tests and other engineers read it). */
export interface CaughtMessage {
  /** The catcher's own id (URL-safe), for `/messages/<id>` and `GET /api/messages/<id>`. */
  id: string
  /** The Message-ID header, angle brackets included (nodemailer's `info.messageId`); '' when absent. */
  messageId: string
  /** When the catcher received it (ISO 8601). */
  receivedAt: string
  /** The Date header (ISO 8601), or null. */
  date: string | null
  /** The SMTP envelope: MAIL FROM and every RCPT TO (lower-cased), which is who really receives it (Bcc too). */
  envelope: { from: string; to: string[] }
  /** The From header's address (lower-cased), '' when absent. */
  from: string
  /** The To header's addresses (lower-cased). */
  to: string[]
  /** The Cc header's addresses (lower-cased). */
  cc: string[]
  subject: string
  /** The text/plain part, or null. */
  text: string | null
  /** The text/html part, or null. */
  html: string | null
  /** Every header by lower-case name; repeated headers joined with '\n'. e.g. headers['list-unsubscribe']. */
  headers: Record<string, string>
  /** The headers in their order, unfolded, as sent. */
  headerLines: Array<{ name: string; value: string }>
  attachments: Array<{ filename: string | null; contentType: string; size: number }>
  /** Size of the raw message in bytes. */
  size: number
  /** The user the client authenticated as (AUTH is optional and any password is accepted), or null. */
  authUser: string | null
  /** The raw message (RFC 5322 source), for `/messages/<id>/raw`. */
  raw: string
}

interface PersistedState {
  version: 1
  messages: CaughtMessage[]
}

export class MailStore {
  private messages: CaughtMessage[]

  private constructor(
    private readonly dataFile: string | undefined,
    private readonly limit: number,
    messages: CaughtMessage[],
  ) {
    this.messages = messages
  }

  static open(dataFile: string | undefined, limit: number): MailStore {
    return new MailStore(dataFile, limit, dataFile ? readMessages(dataFile) : [])
  }

  /** Newest first; `to` keeps the messages with that address in the envelope, To or Cc (case-insensitive). */
  list(filter: { to?: string } = {}): CaughtMessage[] {
    const to = filter.to?.trim().toLowerCase()
    if (!to) return [...this.messages]
    return this.messages.filter((m) => m.envelope.to.includes(to) || m.to.includes(to) || m.cc.includes(to))
  }

  get(id: string): CaughtMessage | undefined {
    return this.messages.find((m) => m.id === id)
  }

  add(message: CaughtMessage): void {
    this.messages.unshift(message)
    if (this.messages.length > this.limit) this.messages.length = this.limit
    this.persist()
  }

  /** Deletes every message (or those matching `to`); returns how many went. */
  clear(filter: { to?: string } = {}): number {
    const doomed = new Set(this.list(filter).map((m) => m.id))
    this.messages = this.messages.filter((m) => !doomed.has(m.id))
    this.persist()
    return doomed.size
  }

  private persist(): void {
    if (!this.dataFile) return
    mkdirSync(dirname(this.dataFile), { recursive: true })
    const temporary = `${this.dataFile}.tmp`
    const state: PersistedState = { version: 1, messages: this.messages }
    writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 })
    renameSync(temporary, this.dataFile)
  }
}

function readMessages(dataFile: string): CaughtMessage[] {
  if (!existsSync(dataFile)) return []
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(dataFile, 'utf8'))
  } catch (error) {
    throw new Error(
      `The mail emulator's data file ${dataFile} is not valid JSON (delete it to start with an empty inbox): ${String(error)}`,
    )
  }
  const state = parsed as Partial<PersistedState> | null
  if (state?.version !== 1 || !Array.isArray(state.messages)) {
    throw new Error(`The mail emulator's data file ${dataFile} has an unknown format (delete it to start with an empty inbox).`)
  }
  return state.messages
}
