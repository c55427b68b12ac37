import type { CaughtMessage } from '../../emulators/mail/server.ts'
import { mailEmulator } from './services.ts'

/*
 * Every integration test file has its own mail catcher (tests/support/services.ts, started for each
 * file), and the app's SMTP_URL points at it: the app's real sendMail (Nodemailer) delivers to a real
 * SMTP server (smtp-server), which parses and keeps every mail.
 *
 *   import { mailEmulator, inbox, waitForMail, withSmtpDown } from '../support/mail.ts'
 *   const receipt = await waitForMail({ to: buyer.email, subject: /receipt/i })
 *   await withSmtpDown(async () => { … jobs fail with MailSendError (temporary) … })
 *
 * The same is reachable over HTTP (mailEmulator.webUrl + '/api/messages?to=…'), as e2e tests do.
 */
export { mailEmulator } from './services.ts'
export type { CaughtMessage } from '../../emulators/mail/server.ts'

/** The mails caught so far, newest first (`to`: envelope, To or Cc, case-insensitive). */
export function inbox(filter: { to?: string } = {}): CaughtMessage[] {
  return mailEmulator.messages(filter)
}

/** The newest mail matching, waiting up to `timeoutMs` for it to arrive. */
export function waitForMail(filter: { to?: string; subject?: string | RegExp }, timeoutMs = 5000): Promise<CaughtMessage> {
  return mailEmulator.waitForMessage(filter, timeoutMs)
}

/** Runs `work` while the SMTP server answers 421 to everything (an outage); it comes back after. */
export async function withSmtpDown<T>(work: () => Promise<T>): Promise<T> {
  mailEmulator.setOutage(true)
  try {
    return await work()
  } finally {
    mailEmulator.setOutage(false)
  }
}
