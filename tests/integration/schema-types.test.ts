import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { db } from '../../app/server/infra/db.server.ts'
import { GENERATED_FILE, generateSchemaTypes } from '../../db/generate-types.ts'

// The worker's database was migrated from scratch by the global setup: its
// catalog is what the migrations say today.
it('db/schema.generated.ts matches the migrated database (else: npm run db:types)', async () => {
  const committed = readFileSync(GENERATED_FILE, 'utf8')
  expect(committed, 'db/schema.generated.ts differs from the migrations: run npm run db:types').toBe(await generateSchemaTypes(db))
})
