import { readFileSync } from 'node:fs'
import { defineConfig, devices } from '@playwright/test'

// The e2e suite runs the production build (npm run test:e2e builds first) on
// its own ports and a fresh data directory, with the embedded PostgreSQL and
// the local Supabase/Stripe/GitHub/mail emulators, in Debian's Chromium.
// E2E_PORT moves every port (and the data directory) so parallel runs don't collide.
const PORT = Number(process.env.E2E_PORT ?? 3100)
/**
 * E2E_CLUSTER=N: the suite runs against the reference deployment (`npm run cluster`, issue 20):
 * nginx on PORT in front of N app instances on one database, the emulators on the same ports.
 * 2 by default: CI runs the suite once, against the deployment's shape (issue 27.8); E2E_CLUSTER=0
 * runs it against a single `server.ts` (quicker to start while iterating on one spec).
 */
export const E2E_CLUSTER = Number(process.env.E2E_CLUSTER ?? 2)
const DATA_DIR = E2E_CLUSTER ? `.data-e2e-cluster-${PORT}` : `.data-e2e-${PORT}`
export const E2E_ENV = {
  NODE_ENV: 'test',
  PORT: String(PORT),
  DATA_DIR,
  BUILD_DIR: process.env.BUILD_DIR ?? 'build',
  EMBEDDED_PG_PORT: String(PORT + 20000),
  SUPABASE_EMULATOR_PORT: String(PORT + 21000),
  STRIPE_EMULATOR_PORT: String(PORT + 22000),
  // Stripe's webhook retries (exponential over 3 days) 1000× faster: the first after 0.3 s.
  STRIPE_EMULATOR_TIME_SCALE: '0.001',
  GITHUB_EMULATOR_PORT: String(PORT + 23000),
  S3_EMULATOR_PORT: String(PORT + 26000),
  // The mail catcher: SMTP, and its inbox page and JSON API (E2E tests read mail at MAIL_INBOX_URL).
  MAIL_EMULATOR_SMTP_PORT: String(PORT + 24000),
  MAIL_EMULATOR_WEB_PORT: String(PORT + 25000),
  SKIP_BUILD: 'true',
  SEED_DEMO_DATA: 'true',
  // Production's lifetime (decision 009). With 20 s, under supabase-js's 90 s refresh margin, every
  // request refreshed and rotated the session; auth.spec's refresh test writes an expired session instead.
  AUTH_ACCESS_TOKEN_TTL: process.env.AUTH_ACCESS_TOKEN_TTL ?? '600',
  RATE_LIMIT_MULTIPLIER: '50',
}

/**
 * The journeys the container stage runs against the production image (tests/container/journeys).
 * E2E_JOURNEYS_IN_CONTAINER=1 (set by .ci/run for `npm test`) leaves them out of this run, so CI runs
 * each spec once: these against the image, the rest against nginx + 2 instances (issue 27.8).
 */
export const CONTAINER_JOURNEYS = readFileSync(new URL('tests/container/journeys', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'))
const leaveJourneysToContainer = Boolean(process.env.E2E_JOURNEYS_IN_CONTAINER) && !process.env.E2E_EXTERNAL

/** The mail catcher's JSON API for e2e tests: `${MAIL_INBOX_URL}/api/messages?to=…` (emulators/mail/server.ts). */
export const MAIL_INBOX_URL = `http://127.0.0.1:${PORT + 25000}`

export default defineConfig({
  testDir: 'tests/e2e',
  testIgnore: leaveJourneysToContainer ? CONTAINER_JOURNEYS.map((spec) => `**/${spec.trim()}`) : [],
  // Per-port output so parallel runs don't delete each other's traces.
  outputDir: `test-results-${PORT}`,
  // 2 min: a journey takes 20–45 s on a quiet machine with two workers, and CI's machine is shared
  // (60 s ran out in a CI run, escrow.spec.ts, 2026-11-27).
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    // A failed test keeps its trace with DOM snapshots (what each step saw); the screencast is left out:
    // it cost about a tenth of the suite's time on 2 cores (measured 90 s against 80 s on two specs).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    // An action or navigation that cannot happen fails at its own line, not at the test's timeout.
    actionTimeout: 20_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  /**
   * E2E_EXTERNAL=1: the app is already running on PORT with the stand-ins on the same ports — the
   * production image in a container (.ci/container, tests/container/stand-ins.ts) — so none is started.
   */
  webServer: process.env.E2E_EXTERNAL
    ? undefined
    : {
        command: `rm -rf ${DATA_DIR} && npx tsx ${E2E_CLUSTER ? `scripts/cluster.ts --instances ${E2E_CLUSTER}` : 'server.ts'}`,
        url: `http://localhost:${PORT}/healthz`,
        env: E2E_ENV,
        timeout: E2E_CLUSTER ? 240_000 : 120_000,
        // The cluster stops nginx, its instances, the emulators and the database in order on SIGTERM.
        ...(E2E_CLUSTER ? { gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 60_000 } } : {}),
        reuseExistingServer: false,
        stdout: 'ignore',
        stderr: 'pipe',
      },
})
