import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import { afterEach, describe, expect, it } from 'vitest'
import { startMailEmulator, type CaughtMessage, type MailEmulator, type MailEmulatorOptions } from './server.ts'

const running: MailEmulator[] = []
const tempDirs: string[] = []

afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()))
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function start(options: MailEmulatorOptions = {}): Promise<MailEmulator> {
  const emulator = await startMailEmulator({ smtpPort: 0, webPort: 0, ...options })
  running.push(emulator)
  return emulator
}

/** The real client, as the app uses it (one connection per mail). */
function client(emulator: MailEmulator, auth?: { user: string; pass: string }) {
  const url = new URL(emulator.smtpUrl)
  return nodemailer.createTransport({ host: url.hostname, port: Number(url.port), secure: false, auth, connectionTimeout: 5000 })
}

const receipt = {
  from: 'Forkmarket <notifications@forkmarket.localhost>',
  to: 'Buyer.One@Example.com',
  subject: 'Your receipt for Invoice Kit',
  text: 'You paid €49.00.\nForkmarket fee: €4.90',
  html: '<p>You paid <strong>€49.00</strong>.</p><script>window.parent.pwned = true</script><a href="http://localhost:3000/purchases">My purchases</a>',
  headers: { 'List-Unsubscribe': '<http://localhost:3000/profile#notifications>' },
}

async function api<T>(emulator: MailEmulator, path: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const response = await fetch(`${emulator.webUrl}${path}`, init)
  return { status: response.status, body: (await response.json()) as T }
}

describe('SMTP: what a relay would accept', () => {
  it('catches a mail sent with nodemailer and parses its HTML, text, envelope and headers', async () => {
    const emulator = await start()
    const info = await client(emulator).sendMail({ ...receipt, bcc: 'audit@example.com' })
    expect(info.accepted).toEqual(['Buyer.One@example.com', 'audit@example.com'])

    const { status, body } = await api<{ messages: CaughtMessage[] }>(emulator, '/api/messages')
    expect(status).toBe(200)
    expect(body.messages).toHaveLength(1)
    const [message] = body.messages
    expect(message.messageId).toBe(info.messageId)
    expect(message.subject).toBe('Your receipt for Invoice Kit')
    expect(message.from).toBe('notifications@forkmarket.localhost')
    expect(message.to).toEqual(['buyer.one@example.com'])
    expect(message.envelope).toEqual({ from: 'notifications@forkmarket.localhost', to: ['buyer.one@example.com', 'audit@example.com'] })
    expect(message.text).toBe('You paid €49.00.\nForkmarket fee: €4.90')
    expect(message.html).toContain('<strong>€49.00</strong>')
    expect(message.headers['list-unsubscribe']).toBe('<http://localhost:3000/profile#notifications>')
    expect(message.headers).not.toHaveProperty('bcc')
    expect(message.authUser).toBeNull()
    expect(message).not.toHaveProperty('raw')

    // Bcc recipients are found by the envelope; the address is matched case-insensitively.
    expect((await api<{ messages: CaughtMessage[] }>(emulator, '/api/messages?to=AUDIT@example.com')).body.messages).toHaveLength(1)
    expect((await api<{ messages: CaughtMessage[] }>(emulator, '/api/messages?to=someone@example.com')).body.messages).toHaveLength(0)
    const full = await api<CaughtMessage>(emulator, `/api/messages/${message.id}`)
    expect(full.body.raw).toContain('Subject: Your receipt for Invoice Kit')
  })

  it('lists newest first and filters by recipient', async () => {
    const emulator = await start()
    const transport = client(emulator)
    await transport.sendMail({ ...receipt, to: 'a@example.com', subject: 'first' })
    await transport.sendMail({ ...receipt, to: 'b@example.com', subject: 'second' })
    await transport.sendMail({ ...receipt, to: 'a@example.com', subject: 'third' })
    expect(emulator.messages().map((m) => m.subject)).toEqual(['third', 'second', 'first'])
    const { body } = await api<{ messages: CaughtMessage[] }>(emulator, '/api/messages?to=a%40example.com')
    expect(body.messages.map((m) => m.subject)).toEqual(['third', 'first'])
  })

  it('accepts AUTH with any password, and mail without AUTH', async () => {
    const emulator = await start()
    await client(emulator, { user: 'postmaster', pass: 'anything' }).sendMail(receipt)
    expect(emulator.messages()[0].authUser).toBe('postmaster')
  })

  it('refuses malformed recipients (501), as a real server does, and keeps nothing', async () => {
    const emulator = await start()
    for (const to of ['buyer@example..com', 'buyer@-bad-.com', 'buyer@']) {
      const error = await client(emulator)
        .sendMail({ ...receipt, to })
        .catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'EENVELOPE', responseCode: 501 })
      expect(String((error as Error).message)).toContain('Bad recipient address syntax')
    }
    expect(emulator.messages()).toHaveLength(0)
    // One bad recipient among good ones: the others still get it.
    const info = await client(emulator).sendMail({ ...receipt, to: ['buyer@example..com', 'ok@example.com'] })
    expect(info.rejected).toEqual(['buyer@example..com'])
    expect(emulator.messages()[0].envelope.to).toEqual(['ok@example.com'])
  })

  it('refuses a mail above the size limit with 552', async () => {
    const emulator = await start({ maxMessageBytes: 4096 })
    await client(emulator).sendMail({ ...receipt, text: 'x'.repeat(1000) })
    const error = await client(emulator)
      .sendMail({ ...receipt, text: 'x'.repeat(10_000) })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ responseCode: 552 })
    expect(emulator.messages()).toHaveLength(1)
  })

  it('simulates an outage: 421 to the sender while on, mail accepted again after', async () => {
    const emulator = await start()
    const on = await api<{ on: boolean }>(emulator, '/api/outage', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ on: true }),
    })
    expect(on).toEqual({ status: 200, body: { on: true } })
    const error = await client(emulator)
      .sendMail(receipt)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ responseCode: 421 })
    expect(emulator.messages()).toHaveLength(0)

    await api(emulator, '/api/outage', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"on":false}' })
    expect((await api<{ on: boolean }>(emulator, '/api/outage')).body).toEqual({ on: false })
    await client(emulator).sendMail(receipt)
    expect(emulator.messages()).toHaveLength(1)
  })

  it('speaks ESMTP: SIZE, optional AUTH, no STARTTLS; refuses address literals with 553', async () => {
    const emulator = await start({ maxMessageBytes: 4096 })
    const session = smtpSession(emulator)
    try {
      expect(await session.reply()).toMatch(/^220 /)
      const ehlo = await session.reply('EHLO client.example')
      expect(ehlo).toContain('250-AUTH LOGIN PLAIN')
      expect(ehlo).toContain('250 SIZE 4096')
      expect(ehlo).not.toContain('STARTTLS')
      expect(await session.reply('MAIL FROM:<notifications@forkmarket.localhost> SIZE=5000')).toMatch(/^552 /)
      expect(await session.reply('MAIL FROM:<notifications@forkmarket.localhost>')).toMatch(/^250 /)
      expect(await session.reply('RCPT TO:<buyer@[127.0.0.1]>')).toMatch(/^553 5\.1\.3 Recipient address rejected/)
      expect(await session.reply('RCPT TO:<buyer@example.com>')).toMatch(/^250 /)
    } finally {
      session.close()
    }
  })

  it('an outage that starts during an open session refuses its next command with 421', async () => {
    const emulator = await start()
    const session = smtpSession(emulator)
    try {
      expect(await session.reply()).toMatch(/^220 /)
      expect(await session.reply('EHLO client.example')).toContain('250')
      emulator.setOutage(true)
      expect(await session.reply('MAIL FROM:<notifications@forkmarket.localhost>')).toMatch(/^421 4\.3\.2 /)
    } finally {
      session.close()
    }
    expect(emulator.messages()).toHaveLength(0)
  })
})

/** A raw SMTP session: `reply(command)` sends one line and resolves with the server's answer. */
function smtpSession(emulator: MailEmulator) {
  const socket = connect(emulator.smtpPort, '127.0.0.1')
  const replies: string[] = []
  let waiting: (() => void) | undefined
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    replies.push(chunk)
    waiting?.()
  })
  const reply = async (command?: string) => {
    const seen = replies.length
    if (command) socket.write(`${command}\r\n`)
    while (replies.length === seen) await new Promise<void>((resolve) => (waiting = resolve))
    return replies.at(-1) ?? ''
  }
  return { reply, close: () => socket.destroy() }
}

describe('JSON API', () => {
  it('deletes messages, all or by recipient', async () => {
    const emulator = await start()
    await client(emulator).sendMail({ ...receipt, to: 'a@example.com' })
    await client(emulator).sendMail({ ...receipt, to: 'b@example.com' })
    expect((await api(emulator, '/api/messages?to=a@example.com', { method: 'DELETE' })).body).toEqual({ deleted: 1 })
    expect(emulator.messages().map((m) => m.to)).toEqual([['b@example.com']])
    expect((await api(emulator, '/api/messages', { method: 'DELETE' })).body).toEqual({ deleted: 1 })
    expect(emulator.messages()).toHaveLength(0)
  })

  it('waits for a mail with ?wait=', async () => {
    const emulator = await start()
    const waiting = api<{ messages: CaughtMessage[] }>(emulator, '/api/messages?to=late@example.com&wait=5000')
    await new Promise((resolve) => setTimeout(resolve, 100))
    await client(emulator).sendMail({ ...receipt, to: 'late@example.com' })
    expect((await waiting).body.messages).toHaveLength(1)
    // And in process:
    const next = emulator.waitForMessage({ to: 'later@example.com', subject: /receipt/ })
    await client(emulator).sendMail({ ...receipt, to: 'later@example.com' })
    expect((await next).to).toEqual(['later@example.com'])
    await expect(emulator.waitForMessage({ to: 'never@example.com' }, 50)).rejects.toThrow(
      'No mail to never@example.com arrived within 50 ms',
    )
  })

  it('answers 4xx JSON to what it does not understand', async () => {
    const emulator = await start()
    expect(await api(emulator, '/api/messages/nope')).toEqual({ status: 404, body: { error: 'No such message.' } })
    expect(
      (await api(emulator, '/api/outage', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"on":"yes"}' }))
        .status,
    ).toBe(400)
    expect(
      (await api(emulator, '/api/outage', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'on' })).status,
    ).toBe(400)
    expect((await api(emulator, '/api/outage', { method: 'POST', body: 'on=true' })).status).toBe(415)
    expect((await api(emulator, '/api/messages', { method: 'PUT' })).status).toBe(405)
    expect(emulator.outage).toBe(false)
  })
})

describe('the inbox pages', () => {
  it('lists the mails and shows one: HTML sandboxed without scripts, the text part, the headers', async () => {
    const emulator = await start()
    await client(emulator).sendMail(receipt)
    await client(emulator).sendMail({ ...receipt, to: 'seller@example.com', subject: 'New sale: Invoice Kit' })

    const inbox = await fetch(`${emulator.webUrl}/`)
    expect(inbox.status).toBe(200)
    expect(inbox.headers.get('content-security-policy')).not.toContain('script-src')
    expect(inbox.headers.get('content-security-policy')).toContain("default-src 'none'")
    const html = await inbox.text()
    expect(html).toContain('<html lang="en">')
    expect(html).toContain('2 messages, newest first')
    expect(html.indexOf('New sale: Invoice Kit')).toBeLessThan(html.indexOf('Your receipt for Invoice Kit'))
    expect(html).toContain('<label for="to">Recipient</label>')

    const filtered = await (await fetch(`${emulator.webUrl}/?to=seller%40example.com`)).text()
    expect(filtered).toContain('New sale: Invoice Kit')
    expect(filtered).not.toContain('Your receipt for Invoice Kit')
    expect(filtered).toContain('1 message to seller@example.com')

    const id = emulator.messages({ to: 'buyer.one@example.com' })[0].id
    const message = await (await fetch(`${emulator.webUrl}/messages/${id}`)).text()
    const iframe = /<iframe [^>]*>/.exec(message)?.[0] ?? ''
    expect(iframe).toContain('sandbox="allow-popups allow-popups-to-escape-sandbox"')
    expect(iframe).not.toContain('allow-scripts')
    expect(iframe).not.toContain('allow-same-origin')
    // The mail's HTML is only inside srcdoc, escaped: the page itself has no <script>.
    expect(message).not.toMatch(/<script/i)
    expect(iframe).toContain('srcdoc="&lt;base target=&quot;_blank&quot;&gt;&lt;p&gt;You paid')
    expect(message).toContain('<pre>You paid €49.00.\nForkmarket fee: €4.90</pre>')
    expect(message).toContain('<dt>List-Unsubscribe</dt><dd>&lt;http://localhost:3000/profile#notifications&gt;</dd>')
    expect(message).toContain('<th scope="row">Subject</th><td>Your receipt for Invoice Kit</td>')

    const raw = await fetch(`${emulator.webUrl}/messages/${id}/raw`)
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await raw.text()).toContain('List-Unsubscribe: <http://localhost:3000/profile#notifications>')
    expect((await fetch(`${emulator.webUrl}/messages/unknown`)).status).toBe(404)
  })

  it('deletes all and toggles the outage from forms (POST, never GET), refusing cross-site posts', async () => {
    const emulator = await start()
    await client(emulator).sendMail(receipt)
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' }
    const crossSite = await fetch(`${emulator.webUrl}/delete`, {
      method: 'POST',
      headers: { ...form, 'Sec-Fetch-Site': 'cross-site' },
      redirect: 'manual',
    })
    expect(crossSite.status).toBe(403)
    expect(emulator.messages()).toHaveLength(1)
    expect((await fetch(`${emulator.webUrl}/delete`)).status).toBe(404)
    expect(emulator.messages()).toHaveLength(1)

    const outage = await fetch(`${emulator.webUrl}/outage`, { method: 'POST', headers: form, body: 'on=true', redirect: 'manual' })
    expect(outage.status).toBe(303)
    expect(emulator.outage).toBe(true)
    expect(await (await fetch(`${emulator.webUrl}/`)).text()).toContain('Simulated SMTP outage')
    await fetch(`${emulator.webUrl}/outage`, { method: 'POST', headers: form, body: 'on=false', redirect: 'manual' })
    expect(emulator.outage).toBe(false)

    const deleted = await fetch(`${emulator.webUrl}/delete`, { method: 'POST', headers: form, redirect: 'manual' })
    expect(deleted.status).toBe(303)
    expect(deleted.headers.get('location')).toBe('/')
    expect(emulator.messages()).toHaveLength(0)
  })
})

describe('the data file', () => {
  it('keeps the mails across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mail-emulator-'))
    tempDirs.push(dir)
    const dataFile = join(dir, 'mail-emulator.json')
    const first = await start({ dataFile })
    await client(first).sendMail(receipt)
    await first.close()

    const second = await start({ dataFile })
    expect(second.messages().map((m) => m.subject)).toEqual(['Your receipt for Invoice Kit'])
    const memoryOnly = await start()
    expect(memoryOnly.messages()).toHaveLength(0)
  })
})
