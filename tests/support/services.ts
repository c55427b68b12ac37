import { startS3Emulator } from '../../emulators/s3/server.ts'
import { startAuthEmulator } from '../../emulators/supabase-auth/server.ts'

// Each integration test file talks to its own in-memory Supabase Auth emulator
// through the real @supabase/ssr client (no mock of the auth path).
export const authEmulator = await startAuthEmulator({ port: 0, accessTokenTtlSeconds: 3600 })
process.env.SUPABASE_URL = authEmulator.url
process.env.SUPABASE_ANON_KEY = authEmulator.anonKey

// …and to its own in-memory S3 emulator for listing images, through the real @aws-sdk/client-s3.
export const s3Emulator = await startS3Emulator({ port: 0, buckets: ['forkmarket-uploads'] })
process.env.STORAGE = 's3'
process.env.S3_ENDPOINT = s3Emulator.url
process.env.S3_BUCKET = 'forkmarket-uploads'
process.env.S3_REGION = s3Emulator.region
process.env.S3_ACCESS_KEY_ID = s3Emulator.accessKeyId
process.env.S3_SECRET_ACCESS_KEY = s3Emulator.secretAccessKey
process.env.S3_FORCE_PATH_STYLE = 'true'
