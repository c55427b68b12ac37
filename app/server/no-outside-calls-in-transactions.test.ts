import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  applicationFiles,
  describeOutsideCall,
  findOutsideCallsInTransactions,
  type OutsideCall,
} from '../../tests/tools/outside-calls-in-transactions.ts'

/*
 * No network call while a database transaction holds a row lock (issue 27.2,
 * docs/decisions/028-no-outside-calls-in-transactions.md): GitHub, Stripe, S3, SMTP and
 * Supabase are read before the transaction or called after it commits.
 */
/**
 * Transactions allowed to call out, for now. The demo seed pays its sales at the Stripe emulator
 * inside the seeding transaction (first start, an empty database nobody else waits on; the ledger
 * backfill after it needs the real intent ids).
 */
const KNOWN_EXCEPTIONS = ['db/seed/demo.ts:']

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/outside-calls-in-transactions')

describe('outside calls inside database transactions', () => {
  let findings: OutsideCall[] = []
  const from = (prefix: string) => findings.filter((finding) => finding.transaction.startsWith(prefix))

  // One TypeScript program for the app and the examples (the checker's slow part).
  beforeAll(() => {
    findings = findOutsideCallsInTransactions({
      files: [...applicationFiles(), path.join(FIXTURES, 'bad.ts'), path.join(FIXTURES, 'good.ts')],
    })
  }, 300_000)

  it('finds each call in the deliberately bad example, however far from the callback', () => {
    const bad = from('tests/fixtures/outside-calls-in-transactions/bad.ts')
    expect(bad.map((finding) => `${finding.service}: ${finding.through.join(' → ')}`).sort()).toEqual([
      '@octokit/app: describeRepository → headSha → installationOctokit',
      '@octokit/plugin-rest-endpoint-methods: describeRepository → headSha',
      'ImageStorage: ',
      'stripe: refundEffect',
    ])
  })

  it('finds nothing when the outside is read first and called after the commit', () => {
    expect(from('tests/fixtures/outside-calls-in-transactions/good.ts')).toEqual([])
  })

  it('finds none in app/ and db/ but the one known exception', () => {
    const app = findings.filter((finding) => !finding.transaction.startsWith('tests/'))
    const known = (finding: OutsideCall) => KNOWN_EXCEPTIONS.some((prefix) => finding.transaction.startsWith(prefix))
    expect(app.filter((finding) => !known(finding)).map(describeOutsideCall)).toEqual([])
    // Still there (else: take it off the list).
    for (const prefix of KNOWN_EXCEPTIONS)
      expect(
        app.some((finding) => finding.transaction.startsWith(prefix)),
        prefix,
      ).toBe(true)
  })
})
