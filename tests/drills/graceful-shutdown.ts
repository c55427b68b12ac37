/**
 * `npm run drill:shutdown` — SIGTERM while a write is in flight: the write
 * must complete and be answered, the process must exit 0 (job runner stopped,
 * pool closed, embedded database stopped), and nothing is cut mid-write.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { freePort } from '../../db/ports.ts'
import { startAuthEmulator } from '../../emulators/supabase-auth/server.ts'
import { emulatorAccessToken, reportDrill, startApp } from './support.ts'

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forkmarket-shutdown-'))
chmodSync(dataDir, 0o755)
// The drill signs in at the auth emulator: started here, on a port it binds itself, and handed to the app.
const auth = await startAuthEmulator({ port: 0 })
const { child: app, url: base } = await startApp({
  DATA_DIR: dataDir,
  // PostgreSQL cannot bind port 0 and say which it got: its port is probed (db/ports.ts).
  EMBEDDED_PG_PORT: String(await freePort()),
  SUPABASE_URL: auth.url,
  SUPABASE_ANON_KEY: auth.anonKey,
  SEED_DEMO_DATA: 'false',
  LOG_SILENT: 'true',
  // Images on disk under DATA_DIR/uploads, where the drill checks each one arrived whole.
  STORAGE: 'local',
})
const token = await emulatorAccessToken(auth.url, 'shutdown@example.com')

// A heavy upload (three large noisy PNGs to decode and re-encode) keeps a write in flight for a while.
const noise = new Uint8Array(
  await sharp({ create: { width: 1400, height: 1000, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .png({ compressionLevel: 1 })
    .toBuffer(),
)
const body = new FormData()
for (let i = 0; i < 3; i++) body.append('images', new File([noise], `n${i}.png`, { type: 'image/png' }))

const startedAt = Date.now()
const inFlight = fetch(`${base}/api/listings/upload-images`, {
  method: 'POST',
  headers: { Authorization: `Bearer ${token}` },
  body,
})
await new Promise((r) => setTimeout(r, 300))
const exited = new Promise<number | null>((resolve) => app.once('exit', (code) => resolve(code)))
app.kill('SIGTERM')
const signalledAt = Date.now()

const response = await inFlight
const result = (await response.json()) as { images?: string[]; error?: string }
const exitCode = await exited
const exitedAfterMs = Date.now() - signalledAt
const stored = (result.images ?? []).every((url) => existsSync(path.join(dataDir, 'uploads', url.replace('/uploads/', ''))))
const refusedAfter = await fetch(`${base}/healthz`).then(
  () => false,
  () => true,
)
await auth.close()
rmSync(dataDir, { recursive: true, force: true })

const report = {
  date: new Date().toISOString(),
  uploadStatus: response.status,
  imagesStored: result.images?.length ?? 0,
  allFilesOnDisk: stored,
  requestMs: Date.now() - startedAt,
  exitCode,
  exitedAfterMs,
  newConnectionsRefusedAfterExit: refusedAfter,
}
console.log(JSON.stringify(report, null, 2))
reportDrill([
  response.status !== 200 && `the in-flight upload was answered ${response.status} ${result.error ?? ''}`,
  result.images?.length !== 3 && 'not every image was stored',
  !stored && 'a stored image is missing on disk',
  exitCode !== 0 && `the process exited with ${exitCode}`,
  // Idle keep-alive connections must not hold the exit (they once did, for the 65 s keep-alive timeout).
  exitedAfterMs > 15_000 && `the process took ${exitedAfterMs} ms to exit`,
])
