import { readdirSync } from 'node:fs'
import { expect, it } from 'vitest'
import { migrations } from '../migrations/index.ts'

it('lists every migration file in migrations/index.ts', () => {
  const files = readdirSync(new URL('../migrations', import.meta.url))
    .filter((f) => /^\d{4}_.+\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ''))
  expect(Object.keys(migrations)).toEqual(files.sort())
})
