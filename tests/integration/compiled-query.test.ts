import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { compileOnce } from '../../app/server/infra/compiled-query.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { signUp } from './admin-fixtures.ts'

describe('compileOnce', () => {
  it('compiles once and runs the same SQL with each call’s own values, results through the plugins', async () => {
    const ada = await signUp('ada@example.com')
    const bob = await signUp('bob@example.com')
    let builds = 0
    const byEmail = compileOnce(1, (email: string) => {
      builds += 1
      return db.selectFrom('users').select(['id', 'displayName']).where('email', '=', email).limit(1)
    })
    expect(await byEmail('ada@example.com')).toEqual([{ id: ada.id, displayName: expect.any(String) }])
    expect((await byEmail('bob@example.com'))[0]?.id).toBe(bob.id)
    expect(await byEmail('nobody@example.com')).toEqual([])
    expect(builds).toBe(1)
  })

  it('puts a value everywhere it is asked for, and refuses a query that puts one into its SQL text', async () => {
    const ada = await signUp('ada@example.com')
    const either = compileOnce(2, (email: string, other: string) =>
      db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb.or([eb('email', '=', email), eb('email', '=', other), eb('username', '=', email)])),
    )
    expect(await either('ada@example.com', 'nobody@example.com')).toEqual([{ id: ada.id }])
    expect(await either('nobody@example.com', 'ada@example.com')).toEqual([{ id: ada.id }])
    const inText = compileOnce(1, (name: string) => db.selectFrom('users').select(sql.lit(name).as('n')))
    await expect(inText('x')).rejects.toThrow("compileOnce: value 0 must be a bound parameter, not in the SQL's text")
    const frozenNow = compileOnce(1, (email: string) =>
      db.selectFrom('users').select('id').where('email', '=', email).where('createdAt', '<', new Date()),
    )
    await expect(frozenNow('x')).rejects.toThrow('compileOnce: a Date among the values would be frozen at the first call')
  })
})
