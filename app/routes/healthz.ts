import { sql } from 'kysely'
import { data } from 'react-router'
import { db } from '~/server/infra/db.server'

export async function loader() {
  try {
    await sql`SELECT 1`.execute(db)
    return data({ status: 'ok', database: 'up' }, { headers: { 'Cache-Control': 'no-store' } })
  } catch {
    return data({ status: 'unavailable', database: 'down' }, { status: 503, headers: { 'Cache-Control': 'no-store' } })
  }
}
