/**
 * CLI: `tsx emulators/mail/main.ts`
 *
 * MAIL_EMULATOR_SMTP_PORT (default 12125), MAIL_EMULATOR_WEB_PORT (default 12126), DATA_DIR
 * (default .data; messages go to $DATA_DIR/mail-emulator.json).
 */
import { join } from 'node:path'
import { stopOnSignals } from '../support/background.ts'
import { portFromEnv, reportListening } from '../support/http.ts'
import { DEFAULT_SMTP_PORT, DEFAULT_WEB_PORT, startMailEmulator } from './server.ts'

const emulator = await startMailEmulator({
  smtpPort: portFromEnv('MAIL_EMULATOR_SMTP_PORT', DEFAULT_SMTP_PORT),
  webPort: portFromEnv('MAIL_EMULATOR_WEB_PORT', DEFAULT_WEB_PORT),
  dataFile: join(process.env.DATA_DIR || '.data', 'mail-emulator.json'),
})
console.log(`Mail emulator: SMTP at ${emulator.smtpUrl}, inbox at ${emulator.webUrl}`)
reportListening({ smtp: emulator.smtpPort, web: emulator.webPort })
stopOnSignals(() => emulator.close())
