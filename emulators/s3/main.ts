/**
 * CLI: `tsx emulators/s3/main.ts`
 *
 * S3_EMULATOR_PORT (default 12113), DATA_DIR (default .data; objects go to
 * $DATA_DIR/s3), S3_REGION (default us-east-1), S3_ACCESS_KEY_ID and
 * S3_SECRET_ACCESS_KEY (default: a fixed id and a random secret, printed),
 * S3_BUCKET (created when missing). Browse at http://127.0.0.1:PORT/_emulator/.
 */
import { join } from 'node:path'
import { stopOnSignals } from '../support/background.ts'
import { portFromEnv, reportListening, urlPort } from '../support/http.ts'
import { DEFAULT_S3_EMULATOR_PORT, startS3Emulator } from './server.ts'

const emulator = await startS3Emulator({
  port: portFromEnv('S3_EMULATOR_PORT', DEFAULT_S3_EMULATOR_PORT),
  dataDir: join(process.env.DATA_DIR || '.data', 's3'),
  region: process.env.S3_REGION || undefined,
  accessKeyId: process.env.S3_ACCESS_KEY_ID || undefined,
  secretAccessKey: process.env.S3_SECRET_ACCESS_KEY || undefined,
  buckets: process.env.S3_BUCKET ? [process.env.S3_BUCKET] : [],
})
console.log(`S3 emulator listening on ${emulator.url} (region ${emulator.region}, path-style)`)
console.log(`  S3_ACCESS_KEY_ID=${emulator.accessKeyId}`)
console.log(`  S3_SECRET_ACCESS_KEY=${emulator.secretAccessKey}`)
console.log(`  browse: ${emulator.url}/_emulator/`)
reportListening({ http: urlPort(emulator.url) })
stopOnSignals(() => emulator.close())
