/**
 * CLI: `tsx emulators/mail/main.ts`
 *
 * MAIL_EMULATOR_SMTP_PORT (default 12125), MAIL_EMULATOR_WEB_PORT (default 12126), DATA_DIR
 * (default .data; messages go to $DATA_DIR/mail-emulator.json).
 */
import { join } from 'node:path'
import { stopOnSignals } from '../support/background.ts'
import { DEFAULT_SMTP_PORT, DEFAULT_WEB_PORT, startMailEmulator } from './server.ts'

function portFrom(name: string, fallback: number): number {
  const value = process.env[name]
  if (value === undefined || value === '') return fallback
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number, got "${value}"`)
  return port
}

const emulator = await startMailEmulator({
  smtpPort: portFrom('MAIL_EMULATOR_SMTP_PORT', DEFAULT_SMTP_PORT),
  webPort: portFrom('MAIL_EMULATOR_WEB_PORT', DEFAULT_WEB_PORT),
  dataFile: join(process.env.DATA_DIR || '.data', 'mail-emulator.json'),
})
console.log(`Mail emulator: SMTP at ${emulator.smtpUrl}, inbox at ${emulator.webUrl}`)
stopOnSignals(() => emulator.close())
