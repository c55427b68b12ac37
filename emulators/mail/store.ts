/**
 * The mail catcher's messages: kept in memory, newest first, and optionally mirrored to a JSON
 * file a moment after a change (like the other emulators' dataFile), so `npm start` keeps the inbox
 * across restarts. The oldest messages are dropped past `limit`. The file is written at most once
 * every WRITE_DELAY_MS: a full inbox is ~10 MB of JSON, and under `npm start` the catcher shares the
 * app's process, whose requests wait while it is written (the soak, bench/soak.ts, found it).
 */
import { DebouncedDataFile, readDataFile } from '../support/data-file.ts'

const WRITE_DELAY_MS = 1_000

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
  private readonly file: DebouncedDataFile | undefined

  private constructor(
    dataFile: string | undefined,
    private readonly limit: number,
    messages: CaughtMessage[],
  ) {
    this.messages = messages
    this.file = dataFile
      ? new DebouncedDataFile(dataFile, (): PersistedState => ({ version: 1, messages: this.messages }), WRITE_DELAY_MS)
      : undefined
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

  /** Writes the data file now if a change is waiting (on close). */
  flush(): void {
    this.file?.flush()
  }

  private persist(): void {
    this.file?.schedule()
  }
}

function readMessages(dataFile: string): CaughtMessage[] {
  const isInbox = (state: unknown): state is PersistedState =>
    (state as Partial<PersistedState> | null)?.version === 1 && Array.isArray((state as PersistedState).messages)
  return readDataFile(dataFile, { what: "The mail emulator's data file", empty: 'an empty inbox' }, isInbox)?.messages ?? []
}
