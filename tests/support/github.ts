import { afterAll } from 'vitest'
import { startGithubEmulator } from '../../emulators/github/server.ts'
import { setEnv } from './config.ts'
import { startWebhookForwarder } from './webhook-forwarder.ts'

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

const forwarder = await startWebhookForwarder({
  path: '/api/github/webhook',
  route: () => import('../../app/routes/api/github-webhook.ts'),
  onAnswer: ({ headers, status, body }) => githubWebhookAnswers.push({ event: headers.get('x-github-event') ?? '', status, body }),
})
export const githubWebhookUrl = forwarder.url
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
  await forwarder.close()
})
