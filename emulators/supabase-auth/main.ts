/**
 * CLI: `tsx emulators/supabase-auth/main.ts`
 *
 * SUPABASE_EMULATOR_PORT (default 12121), DATA_DIR (default .data; state goes
 * to $DATA_DIR/auth-emulator.json), SITE_URL (fallback redirect target).
 */
import { join } from 'node:path'
import { stopOnSignals } from '../support/background.ts'
import { portFromEnv, reportListening, urlPort } from '../support/http.ts'
import { DEFAULT_PORT, startAuthEmulator } from './server.ts'

const emulator = await startAuthEmulator({
  port: portFromEnv('SUPABASE_EMULATOR_PORT', DEFAULT_PORT),
  dataFile: join(process.env.DATA_DIR || '.data', 'auth-emulator.json'),
  siteUrl: process.env.SITE_URL || undefined,
})
console.log(`Supabase Auth emulator listening on ${emulator.url}`)
reportListening({ http: urlPort(emulator.url) })
stopOnSignals(() => emulator.close())
