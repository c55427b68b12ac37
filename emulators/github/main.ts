/**
 * Runs the GitHub emulator as its own process:
 *   GITHUB_WEBHOOK_URL=http://127.0.0.1:3000/api/github/webhook \
 *   GITHUB_SETUP_URL=http://localhost:3000/github/install/callback \
 *   GITHUB_CALLBACK_URL=http://localhost:3000/github/authorize/callback \
 *   GITHUB_EMULATOR_PORT=12112 tsx emulators/github/main.ts
 * State (accounts, repositories, installations, the App's key) goes to $DATA_DIR/github-emulator.json
 * (DATA_DIR default .data). GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY, GITHUB_APP_CLIENT_ID,
 * GITHUB_APP_CLIENT_SECRET and GITHUB_WEBHOOK_SECRET are used when set; otherwise the emulator makes
 * them up (kept in the data file) and prints what to give the app.
 */
import { join } from 'node:path'
import { stopOnSignals } from '../support/background.ts'
import { portFromEnv, reportListening, urlPort } from '../support/http.ts'
import { DEFAULT_PORT, startGithubEmulator } from './server.ts'

const appId = process.env.GITHUB_APP_ID ? Number(process.env.GITHUB_APP_ID) : undefined
if (appId !== undefined && !Number.isSafeInteger(appId)) {
  console.error(`Invalid GITHUB_APP_ID: ${process.env.GITHUB_APP_ID}`)
  process.exit(1)
}

const emulator = await startGithubEmulator({
  port: portFromEnv('GITHUB_EMULATOR_PORT', DEFAULT_PORT),
  host: process.env.GITHUB_EMULATOR_HOST || undefined,
  dataFile: join(process.env.DATA_DIR || '.data', 'github-emulator.json'),
  webhookUrl: process.env.GITHUB_WEBHOOK_URL || undefined,
  webhookSecret: process.env.GITHUB_WEBHOOK_SECRET || undefined,
  appId,
  privateKey: process.env.GITHUB_APP_PRIVATE_KEY?.replace(/\\n/g, '\n') || undefined,
  clientId: process.env.GITHUB_APP_CLIENT_ID || undefined,
  clientSecret: process.env.GITHUB_APP_CLIENT_SECRET || undefined,
  setupUrl: process.env.GITHUB_SETUP_URL || undefined,
  callbackUrls: process.env.GITHUB_CALLBACK_URL ? [process.env.GITHUB_CALLBACK_URL] : undefined,
})
console.log(`GitHub emulator listening on ${emulator.url} (pages: ${emulator.url}/_emulator)`)
console.log(
  [
    `GITHUB_API_URL=${emulator.url}`,
    `GITHUB_WEB_URL=${emulator.url}`,
    `GITHUB_APP_ID=${emulator.appId}`,
    `GITHUB_APP_SLUG=${emulator.appSlug}`,
    `GITHUB_APP_CLIENT_ID=${emulator.clientId}`,
    `GITHUB_APP_CLIENT_SECRET=${emulator.clientSecret}`,
    `GITHUB_WEBHOOK_SECRET=${emulator.webhookSecret}`,
    `GITHUB_APP_PRIVATE_KEY="${emulator.privateKey.trim().replace(/\n/g, '\\n')}"`,
  ].join('\n'),
)
reportListening({ http: urlPort(emulator.url) })

stopOnSignals(() => emulator.close())
