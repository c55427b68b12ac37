import { createDb } from '../../db/connection.ts'
import { requireEnv } from './env.server.ts'

// One pool per process; created on first import after the launcher (or the
// test setup) has put DATABASE_URL in the environment.
export const db = createDb(requireEnv('DATABASE_URL'))
