import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { CommitChecksLine } from './commit-checks-line'

describe('CommitChecksLine', () => {
  it('says what the checks said, with the counts and when they were read', () => {
    const html = renderToString(
      <CommitChecksLine reading={{ summary: 'passed', passed: 2, failed: 0, pending: 0, readAt: '2026-05-03T14:02:00.000Z' }} />,
    )
    expect(html).toContain('Checks passed at the listed commit: 2 of 2 passed')
    expect(html).toContain('(checked on GitHub ')
    expect(html).toContain('<time dateTime="2026-05-03T14:02:00.000Z">May 3, 2026, 2:02 PM UTC</time>')
  })

  it('says failed, pending or none as plainly', () => {
    const line = (summary: 'failed' | 'pending' | 'none', subject?: string) =>
      renderToString(
        <CommitChecksLine reading={{ summary, passed: 0, failed: 1, pending: 0, readAt: '2026-05-03T14:02:00.000Z' }} subject={subject} />,
      )
    expect(line('failed')).toContain('Checks failed at the listed commit')
    expect(line('pending', 'the delivered commit')).toContain('Checks still running at the delivered commit')
    expect(line('none')).toContain('No checks at the listed commit')
  })
})
