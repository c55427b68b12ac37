import { createDb } from '../../../db/connection.ts'
import { config } from './env.server.ts'

// One pool per process; created on first import, after the launcher (or the
// test setup) has loaded the configuration.
export const db = createDb(config().DATABASE_URL, { max: config().DB_POOL_MAX })
