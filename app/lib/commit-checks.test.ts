import { describe, expect, it } from 'vitest'
import {
  checkRunResult,
  checksHeadline,
  checksSentence,
  checksTally,
  commitStatusResult,
  summarizeChecks,
  type CheckDetail,
} from './commit-checks'

const detail = (name: string, result: CheckDetail['result']): CheckDetail => ({
  kind: 'check_run',
  name,
  by: 'GitHub Actions',
  outcome: result,
  result,
})

describe('commit checks summary', () => {
  it('reads check runs and statuses as GitHub means them', () => {
    expect(checkRunResult({ status: 'completed', conclusion: 'success' })).toBe('passed')
    expect(checkRunResult({ status: 'completed', conclusion: 'skipped' })).toBe('passed')
    expect(checkRunResult({ status: 'completed', conclusion: 'timed_out' })).toBe('failed')
    expect(checkRunResult({ status: 'in_progress', conclusion: null })).toBe('pending')
    expect(commitStatusResult('error')).toBe('failed')
    expect(commitStatusResult('pending')).toBe('pending')
    expect(commitStatusResult('success')).toBe('passed')
  })

  it('fails on any failure, waits on anything running, passes only with something that passed', () => {
    expect(summarizeChecks([]).summary).toBe('none')
    expect(summarizeChecks([detail('build', 'passed'), detail('lint', 'pending')]).summary).toBe('pending')
    expect(summarizeChecks([detail('build', 'failed'), detail('lint', 'pending')])).toMatchObject({
      summary: 'failed',
      failed: 1,
      pending: 1,
    })
    expect(summarizeChecks([detail('build', 'passed'), detail('test', 'passed')])).toMatchObject({ summary: 'passed', passed: 2 })
  })

  it('says it in one line', () => {
    expect(checksHeadline('passed')).toBe('Checks passed at the listed commit')
    expect(checksHeadline('none', 'the delivered commit')).toBe('No checks at the delivered commit')
    expect(checksTally({ summary: 'failed', passed: 3, failed: 2, pending: 0 })).toBe('2 of 5 failed')
    expect(checksTally({ summary: 'pending', passed: 3, failed: 0, pending: 1 })).toBe('1 of 4 still running')
    expect(checksTally({ summary: 'none', passed: 0, failed: 0, pending: 0 })).toBe('')
    expect(checksSentence({ summary: 'failed', passed: 3, failed: 2, pending: 0 }, 'the delivered commit')).toBe(
      'Checks failed at the delivered commit: 2 of 5 failed',
    )
    expect(checksSentence({ summary: 'passed', passed: 2, failed: 0, pending: 0 })).toBe(
      'Checks passed at the listed commit: 2 of 2 passed',
    )
    expect(checksSentence({ summary: 'unavailable', passed: 0, failed: 0, pending: 0 })).toBe(
      'Checks could not be read at the listed commit',
    )
  })
})
