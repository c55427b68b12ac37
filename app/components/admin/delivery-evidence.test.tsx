import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { GithubEvidence } from '~/server/domain/github-views.server'
import { DeliveryEvidence } from './delivery-evidence'

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')

// The demo's shape: the listing recorded its commit on Nov 1; the delivered commit was written
// on Oct 20 (before the listing) and read when the buyer's access was confirmed on Nov 3.
const evidence: GithubEvidence = {
  repository: 'acme/kit',
  repositoryUrl: 'https://github.com/acme/kit',
  listedSha: 'a'.repeat(40),
  listedAt: new Date('2026-11-01T10:00:00Z'),
  deliveredSha: 'b'.repeat(40),
  deliveredShaDate: new Date('2026-10-20T08:00:00Z'),
  summary: 'The code changed on Oct 20, 2026, 8:00 AM UTC (the delivered commit’s date)',
  buyerGithubId: 7,
  buyerLogin: 'octo',
  invitedAt: new Date('2026-11-02T08:00:00Z'),
  acceptedAt: new Date('2026-11-03T10:00:00Z'),
  resentAt: null,
  forkUrl: null,
  state: 'accepted',
  waitingOn: null,
  lastError: null,
  revokedAt: null,
  revocation: null,
  checks: { listed: null, delivered: null },
}

describe('delivery evidence labels (issue 26.10)', () => {
  it('names a commit date a commit date and an event time an event time', () => {
    const html = renderToString(<DeliveryEvidence evidence={evidence} />)
    const page = text(html)
    // Each time says what it is, next to its value.
    const times = [...html.matchAll(/data-evidence-time="([^"]+)"[^>]*>.*?<time dateTime="([^"]+)"/g)].map((m) => [m[1], m[2]])
    expect(times).toEqual([
      ['Recorded with the listing', '2026-11-01T10:00:00.000Z'],
      ['Commit date', '2026-10-20T08:00:00.000Z'],
    ])
    expect(page).toContain('Listed commit (what the buyer paid for)')
    expect(page).toContain('Delivered commit (read when access was confirmed)')
    // The old labels put a commit date under "when access was confirmed", and the listing's time under "when the buyer paid".
    expect(page).not.toContain('when the buyer paid')
    expect(page).not.toMatch(/Delivered \(when access was confirmed\)/)
  })

  it("shows what GitHub's checks said at each commit, with when they were read (issue 30)", () => {
    const page = text(
      renderToString(
        <DeliveryEvidence
          evidence={{
            ...evidence,
            checks: {
              listed: { summary: 'passed', passed: 3, failed: 0, pending: 0, readAt: '2026-11-01T10:00:05.000Z' },
              delivered: { summary: 'failed', passed: 3, failed: 2, pending: 0, readAt: '2026-11-03T10:00:01.000Z' },
            },
          }}
        />,
      ),
    )
    expect(page).toContain('Checks passed at the listed commit: 3 of 3 passed (checked on GitHub Nov 1, 2026, 10:00 AM UTC')
    expect(page).toContain('Checks failed at the delivered commit: 2 of 5 failed (checked on GitHub Nov 3, 2026, 10:00 AM UTC')
    expect(text(renderToString(<DeliveryEvidence evidence={evidence} />))).not.toContain('Checks')
  })
})
