import { describe, expect, it } from 'vitest'
import { MailSendError, sendMail } from '../../app/server/infra/mail.server.ts'
import { inbox, mailEmulator, waitForMail, withSmtpDown } from '../support/mail.ts'

// The integration tests' mail: tests/support/mail.ts gives this file its own catcher and points
// SMTP_URL at it, so the app's real sendMail (Nodemailer) delivers over real SMTP.
describe('mail in integration tests', () => {
  it('delivers what sendMail sends to the file’s own catcher, readable in process and over HTTP', async () => {
    const messageId = await sendMail({ to: 'buyer@example.com', subject: 'Your receipt', html: '<p>Paid</p>', text: 'Paid' })
    const caught = await waitForMail({ to: 'buyer@example.com', subject: 'Your receipt' })
    expect(caught.messageId).toBe(messageId)
    expect(caught.headers.from).toBe('Forkmarket <notifications@forkmarket.test>')
    const response = await fetch(`${mailEmulator.webUrl}/api/messages?to=buyer%40example.com`)
    expect(((await response.json()) as { messages: Array<{ messageId: string }> }).messages.map((m) => m.messageId)).toEqual([messageId])
  })

  it('withSmtpDown: sends fail as temporary while it lasts and nothing arrives; afterwards mail goes again', async () => {
    const before = inbox().length
    const error = await withSmtpDown(() =>
      sendMail({ to: 'seller@example.com', subject: 'New sale', html: '<p>Sold</p>', text: 'Sold' }).catch((e: unknown) => e),
    )
    expect(error).toBeInstanceOf(MailSendError)
    expect(error).toMatchObject({ temporary: true, responseCode: 421 })
    expect(inbox()).toHaveLength(before)
    await sendMail({ to: 'seller@example.com', subject: 'New sale', html: '<p>Sold</p>', text: 'Sold' })
    expect(inbox({ to: 'seller@example.com' })).toHaveLength(1)
  })
})
