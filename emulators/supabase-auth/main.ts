/**
 * CLI: `tsx emulators/supabase-auth/main.ts`
 *
 * SUPABASE_EMULATOR_PORT (default 12121), DATA_DIR (default .data; state goes
 * to $DATA_DIR/auth-emulator.json), SITE_URL (fallback redirect target).
 */
import { join } from 'node:path'
import { startAuthEmulator } from './server.ts'

const port = Number(process.env.SUPABASE_EMULATOR_PORT ?? 12121)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  throw new Error(`SUPABASE_EMULATOR_PORT must be a port number, got "${process.env.SUPABASE_EMULATOR_PORT}"`)
}

const emulator = await startAuthEmulator({
  port,
  dataFile: join(process.env.DATA_DIR || '.data', 'auth-emulator.json'),
  siteUrl: process.env.SITE_URL || undefined,
})
console.log(`Supabase Auth emulator listening on ${emulator.url}`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error)
        process.exit(1)
      },
    )
  })
}
