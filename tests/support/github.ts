import { githubEmulator, githubWebhookUrl } from './services.ts'

/*
 * Every integration test file has its own GitHub emulator (tests/support/services.ts, started for each
 * file), and the app's GitHub App configuration points at it (the real @octokit clients talk to it).
 * Webhooks reach the app's real route: a tiny local HTTP server receives the emulator's signed POSTs
 * and hands them, byte for byte, to callRoute(github-webhook); `githubWebhookAnswers` keeps its answers.
 */
export { githubEmulator, githubWebhookAnswers, githubWebhookUrl } from './services.ts'

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
