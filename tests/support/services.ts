import { startAuthEmulator } from '../../emulators/supabase-auth/server.ts'

// Each integration test file talks to its own in-memory Supabase Auth emulator
// through the real @supabase/ssr client (no mock of the auth path).
export const authEmulator = await startAuthEmulator({ port: 0, accessTokenTtlSeconds: 3600 })
process.env.SUPABASE_URL = authEmulator.url
process.env.SUPABASE_ANON_KEY = authEmulator.anonKey
