/**
 * Runs the Stripe emulator as its own process:
 *   STRIPE_WEBHOOK_SECRET=whsec_… STRIPE_WEBHOOK_URL=http://localhost:3000/api/stripe/webhook \
 *   STRIPE_EMULATOR_PORT=12111 tsx emulators/stripe/main.ts
 * STRIPE_WEBHOOK_DELAY_MS=3000 holds back every webhook delivery (a late webhook);
 * POST /_emulator/webhook-delay { ms, metadata? } changes it while running.
 * A webhook the endpoint does not answer with 2xx is retried on Stripe's live-mode schedule (exponential,
 * over 3 days); STRIPE_EMULATOR_TIME_SCALE=0.001 runs those waits 1000 times faster.
 * POST /_emulator/failures { status: 409 | 429 | 500, code?, times?, operationId?, path?, delayMs? } makes the
 * next matching API requests fail as a busy or broken Stripe does (failures.ts); DELETE clears them.
 * The account is kept in $DATA_DIR/stripe-emulator.json (DATA_DIR default .data) across restarts.
 */

import { join } from 'node:path'
import { stopOnSignals } from '../support/background.ts'
import { portFromEnv, reportListening } from '../support/http.ts'
import { DEFAULT_PORT, startStripeEmulator } from './server.ts'

const webhookSecret = process.env.STRIPE_WEBHOOK_SECRET
if (!webhookSecret) {
  console.error('Set STRIPE_WEBHOOK_SECRET (whsec_…), the secret the app verifies webhooks with.')
  process.exit(1)
}

const timeScale = Number(process.env.STRIPE_EMULATOR_TIME_SCALE || 1)
if (!Number.isFinite(timeScale) || timeScale <= 0) {
  console.error(`Invalid STRIPE_EMULATOR_TIME_SCALE (a number > 0): ${process.env.STRIPE_EMULATOR_TIME_SCALE}`)
  process.exit(1)
}

const emulator = await startStripeEmulator({
  port: portFromEnv('STRIPE_EMULATOR_PORT', DEFAULT_PORT),
  host: process.env.STRIPE_EMULATOR_HOST || undefined,
  webhookSecret,
  webhookUrl: process.env.STRIPE_WEBHOOK_URL || undefined,
  webhookDelayMs: Number(process.env.STRIPE_WEBHOOK_DELAY_MS || 0),
  timeScale,
  dataFile: join(process.env.DATA_DIR || '.data', 'stripe-emulator.json'),
})
console.log(`Stripe emulator listening on ${emulator.url}`)
reportListening({ http: emulator.port })

stopOnSignals(() => emulator.close())
