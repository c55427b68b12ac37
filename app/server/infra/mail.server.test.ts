import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startMailEmulator, type MailEmulator } from '../../../emulators/mail/server.ts'
import { ConfigError, loadConfig, parseConfig } from './env.server.ts'
import { mailConfigured, MailNotConfiguredError, MailSendError, sendMail } from './mail.server.ts'

// The app's transport (real Nodemailer) against the mail catcher (real smtp-server).
let emulator: MailEmulator

function useConfig(variables: Record<string, string | undefined>) {
  loadConfig({ ...process.env, LOG_SILENT: 'true', ...variables })
}

beforeAll(async () => {
  emulator = await startMailEmulator({ smtpPort: 0, webPort: 0 })
})
afterEach(() => {
  emulator.setOutage(false)
  emulator.clear()
})
afterAll(async () => {
  await emulator.close()
  loadConfig(process.env)
})

const mail = {
  to: 'buyer@example.com',
  subject: 'Your receipt',
  html: '<p>You paid <strong>€49.00</strong></p>',
  text: 'You paid €49.00',
  headers: { 'List-Unsubscribe': '<http://localhost:3000/profile>' },
}

describe('sendMail', () => {
  it('sends HTML and text From MAIL_FROM and returns the Message-ID', async () => {
    useConfig({ SMTP_URL: emulator.smtpUrl, MAIL_FROM: 'Forkmarket <hello@forkmarket.example>' })
    expect(mailConfigured()).toBe(true)
    const messageId = await sendMail(mail)
    const [caught] = emulator.messages({ to: 'buyer@example.com' })
    expect(caught.messageId).toBe(messageId)
    expect(caught.headers.from).toBe('Forkmarket <hello@forkmarket.example>')
    expect(caught.html).toBe(mail.html)
    expect(caught.text).toBe(mail.text)
    expect(caught.headers['list-unsubscribe']).toBe('<http://localhost:3000/profile>')
  })

  it('uses a Message-ID given by the caller', async () => {
    useConfig({ SMTP_URL: emulator.smtpUrl })
    expect(await sendMail({ ...mail, messageId: '<outbox-42@forkmarket.example>' })).toBe('<outbox-42@forkmarket.example>')
    expect(emulator.messages()[0].messageId).toBe('<outbox-42@forkmarket.example>')
  })

  it('throws a temporary MailSendError while the SMTP server is down (421), and sends once it is back', async () => {
    useConfig({ SMTP_URL: emulator.smtpUrl })
    emulator.setOutage(true)
    const error = await sendMail(mail).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MailSendError)
    expect(error).toMatchObject({ temporary: true, responseCode: 421 })
    expect((error as Error).message).toMatch(
      /^Sending mail "Your receipt" to buyer@example.com failed \(temporary\): the server answered "421 4\.3\.2/,
    )
    expect(emulator.messages()).toHaveLength(0)
    emulator.setOutage(false)
    await sendMail(mail)
    expect(emulator.messages()).toHaveLength(1)
  })

  it('throws a temporary MailSendError when nothing listens at SMTP_URL', async () => {
    const closed = await startMailEmulator({ smtpPort: 0, webPort: 0 })
    await closed.close()
    useConfig({ SMTP_URL: closed.smtpUrl })
    const error = await sendMail(mail).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'MailSendError', temporary: true, responseCode: undefined })
    expect((error as Error).message).toContain('ECONNREFUSED')
  })

  it('throws a permanent MailSendError when the server refuses the recipient (5xx)', async () => {
    useConfig({ SMTP_URL: emulator.smtpUrl })
    const error = await sendMail({ ...mail, to: 'buyer@example..com' }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'MailSendError', temporary: false, responseCode: 501 })
  })

  it('sends nothing without SMTP_URL', async () => {
    useConfig({ SMTP_URL: undefined })
    expect(mailConfigured()).toBe(false)
    await expect(sendMail(mail)).rejects.toBeInstanceOf(MailNotConfiguredError)
  })
})

describe('mail configuration', () => {
  const problems = (env: Record<string, string>) => {
    try {
      parseConfig(env)
      return []
    } catch (error) {
      return error instanceof ConfigError ? error.problems : [String(error)]
    }
  }

  it('takes smtp:// and smtps:// URLs and a From with or without a name', () => {
    expect(problems({ SMTP_URL: 'smtps://user:p%40ss@smtp.example.com:465', MAIL_FROM: 'Forkmarket <hi@forkmarket.example>' })).toEqual([])
    expect(problems({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'hi@forkmarket.example' })).toEqual([])
    expect(problems({ SMTP_URL: 'http://smtp.example.com' })).toEqual(['SMTP_URL must be an smtp:// or smtps:// URL'])
    expect(problems({ MAIL_FROM: 'Forkmarket' })).toEqual(['MAIL_FROM must be an address, or a name and <address> (got "Forkmarket")'])
    expect(parseConfig({}).MAIL_FROM).toBe('Forkmarket <notifications@forkmarket.localhost>')
  })

  it('requires MAIL_FROM with SMTP_URL in production, and never shows the SMTP password', () => {
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtps://user:secret-password@smtp.example.com:465' }
    expect(problems(production)).toContain('MAIL_FROM must be set with SMTP_URL in production (an address of your domain)')
    expect(problems({ ...production, MAIL_FROM: 'hi@forkmarket.example' })).not.toContainEqual(expect.stringContaining('MAIL_FROM'))
    expect(problems({ NODE_ENV: 'production' })).not.toContainEqual(expect.stringContaining('MAIL_FROM'))
    expect(problems({ SMTP_URL: 'ftp://user:secret-password@x' }).join('\n')).not.toContain('secret-password')
  })
})
