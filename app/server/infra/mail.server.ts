/**
 * The app's mail transport: one function, `sendMail`, that hands a finished mail (HTML plus a
 * plain-text part) to the SMTP server at SMTP_URL, From MAIL_FROM, with Nodemailer. It knows
 * nothing of templates, the outbox or retries (the notifications code does those).
 *
 * Stable API (the notifications job calls it):
 *   sendMail({ to, subject, html, text, headers?, messageId? }): Promise<string>
 *     Resolves with the Message-ID the SMTP server accepted (angle brackets included) once the
 *     server has taken the mail (250 after DATA). Rejects with a MailSendError when it did not:
 *     `temporary` is true for a connection failure, a timeout or a 4xx answer (retry later: the
 *     mail may still go), false for a 5xx answer (a bad address, a refused sender: retrying the
 *     same mail will not help). Rejects with a MailNotConfiguredError when SMTP_URL is unset.
 *   mailConfigured(): boolean — whether SMTP_URL is set (locally the launcher sets it to the
 *     mail catcher, emulators/mail/; in production without it no mail is sent).
 *
 * No mail leaves the machine unless SMTP_URL is set: locally, `npm start` and the tests point it at
 * the catcher, whose inbox shows every mail (README, "Mail").
 */
import nodemailer, { type Transporter } from 'nodemailer'
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js'
import { config } from './env.server.ts'
import { logEvent } from './log.server.ts'

export interface OutgoingMail {
  /** One address, or several (each gets the same mail). */
  to: string | string[]
  subject: string
  html: string
  text: string
  /** Extra headers, e.g. { 'List-Unsubscribe': '<https://…>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }. */
  headers?: Record<string, string>
  /** A Message-ID of your own (e.g. derived from an outbox row: `<outbox-42@forkmarket.example>`); default: generated. */
  messageId?: string
}

export class MailNotConfiguredError extends Error {
  constructor() {
    super('Mail is off: SMTP_URL is not set (npm start sets it to the local mail catcher; in production set it to your SMTP provider).')
    this.name = 'MailNotConfiguredError'
  }
}

export class MailSendError extends Error {
  constructor(
    message: string,
    /** True when a later attempt may succeed (connection refused or dropped, timeout, 4xx). */
    readonly temporary: boolean,
    /** The SMTP reply code, when the server answered (e.g. 421, 550). */
    readonly responseCode: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'MailSendError'
  }
}

// One transport per SMTP_URL (tests change it between files). Not pooled: one connection per mail,
// so a server that went away costs one failed attempt, not a stale pool.
let cached: { url: string; transport: Transporter } | undefined

function transportFor(url: string): Transporter {
  if (cached?.url === url) return cached.transport
  cached?.transport.close()
  const transport = nodemailer.createTransport({
    // Nodemailer's defaults wait minutes; a job that retries wants to hear quickly. The URL's own
    // query options (e.g. ?pool=true, ?socketTimeout=…) win.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    ...parseConnectionUrl(url),
  })
  cached = { url, transport }
  return transport
}

export function mailConfigured(): boolean {
  return config().SMTP_URL !== undefined
}

/** Sends one mail; resolves with its Message-ID once the SMTP server accepted it. */
export async function sendMail(mail: OutgoingMail): Promise<string> {
  const { SMTP_URL, MAIL_FROM } = config()
  if (!SMTP_URL) throw new MailNotConfiguredError()
  const recipients = Array.isArray(mail.to) ? mail.to : [mail.to]
  const shownTo = recipients.join(', ')
  let info: { messageId: string; accepted: Array<string | { address: string }>; rejected: Array<string | { address: string }> }
  try {
    info = await transportFor(SMTP_URL).sendMail({
      from: MAIL_FROM,
      to: recipients,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      headers: mail.headers,
      messageId: mail.messageId,
    })
  } catch (error) {
    const { code, responseCode, response } = (error ?? {}) as { code?: string; responseCode?: number; response?: string }
    const temporary = responseCode === undefined || responseCode < 500
    const answer = response
      ? `the server answered "${response.trim()}"`
      : `${code ?? 'error'}: ${error instanceof Error ? error.message : String(error)}`
    throw new MailSendError(
      `Sending mail "${mail.subject}" to ${shownTo} failed (${temporary ? 'temporary' : 'permanent'}): ${answer}`,
      temporary,
      responseCode,
      { cause: error },
    )
  }
  // Some recipients refused, others took it (when all are refused Nodemailer rejects above): the
  // mail went out, so it is not an error to retry (that would send it twice to the others).
  if (info.rejected.length > 0) {
    logEvent('warn', 'mail_recipients_refused', {
      messageId: info.messageId,
      refused: info.rejected.length,
      accepted: info.accepted.length,
    })
  }
  return info.messageId
}
