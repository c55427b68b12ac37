import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll } from 'vitest'
import { startGithubEmulator } from '../../emulators/github/server.ts'
import { APP, callRoute } from './call-route.ts'
import { setEnv } from './config.ts'

/*
 * Each integration test file that imports this gets its own GitHub emulator
 * (port 0), and the app's GitHub App configuration points at it (the real
 * @octokit clients talk to it). Import it before any app module. Webhooks reach
 * the app's real route: a tiny local HTTP server receives the emulator's signed
 * POSTs and hands them, byte for byte, to callRoute(github-webhook).
 */
export const githubEmulator = await startGithubEmulator({ port: 0 })

setEnv({
  GITHUB_API_URL: githubEmulator.url,
  GITHUB_APP_ID: String(githubEmulator.appId),
  GITHUB_APP_PRIVATE_KEY: githubEmulator.privateKey,
  GITHUB_APP_CLIENT_ID: githubEmulator.clientId,
  GITHUB_APP_CLIENT_SECRET: githubEmulator.clientSecret,
  GITHUB_WEBHOOK_SECRET: githubEmulator.webhookSecret,
})

/** The app's answers to the emulator's webhook deliveries, newest last. */
export const githubWebhookAnswers: Array<{ event: string; status: number; body: string }> = []

const forwarder = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    void (async () => {
      try {
        const webhook = await import('../../app/routes/api/github-webhook.ts')
        const headers = new Headers()
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
        const response = await callRoute(
          webhook,
          new Request(`${APP}/api/github/webhook`, { method: 'POST', headers, body: Buffer.concat(chunks) }),
        )
        const body = await response.text()
        githubWebhookAnswers.push({ event: headers.get('x-github-event') ?? '', status: response.status, body })
        res.writeHead(response.status, { 'Content-Type': 'application/json' }).end(body)
      } catch (error) {
        res.writeHead(500).end(String(error))
      }
    })()
  })
})
await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve))
export const githubWebhookUrl = `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}/api/github/webhook`
githubEmulator.setWebhookUrl(githubWebhookUrl)

/** Runs `work` with the emulator's webhooks lost (a GitHub delivery that never arrives). */
export async function withGithubWebhooksLost<T>(work: () => Promise<T>): Promise<T> {
  githubEmulator.setWebhookUrl(undefined)
  try {
    const result = await work()
    await githubEmulator.idle()
    return result
  } finally {
    githubEmulator.setWebhookUrl(githubWebhookUrl)
  }
}

afterAll(async () => {
  await githubEmulator.close()
  await new Promise<void>((resolve) => forwarder.close(() => resolve()))
})
