/**
 * What a commit's checks on the code host say, summed up once for every screen (issue 30): the check
 * runs (GitHub's Checks API) and commit statuses (Statuses API) of one commit, read at one moment.
 *
 * - failed: a check run ended failure, timed_out, cancelled, action_required or startup_failure, or a
 *   status is error or failure (GitHub's own combined status treats error and failure alike);
 * - pending: none failed, but a check run has not completed or a status is pending;
 * - passed: at least one check or status, and every one ended success, neutral or skipped;
 * - none: the commit has no check run and no status;
 * - unavailable: GitHub could not be asked (no permission yet, down): not evidence either way.
 */
export type ChecksSummary = 'passed' | 'failed' | 'pending' | 'none' | 'unavailable'
export type CheckResult = 'passed' | 'failed' | 'pending'

export interface CheckDetail {
  kind: 'check_run' | 'status'
  /** The check run's name or the status's context. */
  name: string
  /** Who reported it: the App's name for a check run, the creator's login for a status. */
  by: string | null
  /** GitHub's own word: a run's conclusion (or status while running), a status's state. */
  outcome: string
  result: CheckResult
}

export interface ChecksReadingSummary {
  summary: ChecksSummary
  passed: number
  failed: number
  pending: number
  details: CheckDetail[]
}

const FAILED_CONCLUSIONS = new Set(['failure', 'timed_out', 'cancelled', 'action_required', 'startup_failure', 'stale'])

export function checkRunResult(run: { status: string; conclusion: string | null }): CheckResult {
  if (run.status !== 'completed' || run.conclusion === null) return 'pending'
  return FAILED_CONCLUSIONS.has(run.conclusion) ? 'failed' : 'passed'
}

export function commitStatusResult(state: string): CheckResult {
  if (state === 'success') return 'passed'
  return state === 'pending' ? 'pending' : 'failed'
}

export function summarizeChecks(details: CheckDetail[]): ChecksReadingSummary {
  const count = (result: CheckResult) => details.filter((detail) => detail.result === result).length
  const passed = count('passed')
  const failed = count('failed')
  const pending = count('pending')
  const summary: ChecksSummary = failed > 0 ? 'failed' : pending > 0 ? 'pending' : passed > 0 ? 'passed' : 'none'
  return { summary, passed, failed, pending, details }
}

/** The one line a screen shows for a reading of the listed commit. */
export function checksHeadline(summary: ChecksSummary, subject = 'the listed commit'): string {
  switch (summary) {
    case 'passed':
      return `Checks passed at ${subject}`
    case 'failed':
      return `Checks failed at ${subject}`
    case 'pending':
      return `Checks still running at ${subject}`
    case 'none':
      return `No checks at ${subject}`
    case 'unavailable':
      return `Checks could not be read at ${subject}`
  }
}

/** How many of the commit's checks said so: "2 of 5 failed", "3 of 3 passed", "1 of 4 still running"; empty without checks. */
export function checksTally(reading: Pick<ChecksReadingSummary, 'summary' | 'passed' | 'failed' | 'pending'>): string {
  const total = reading.passed + reading.failed + reading.pending
  switch (reading.summary) {
    case 'passed':
      return `${reading.passed} of ${total} passed`
    case 'failed':
      return `${reading.failed} of ${total} failed`
    case 'pending':
      return `${reading.pending} of ${total} still running`
    default:
      return ''
  }
}

/** "Checks failed at the delivered commit: 2 of 5 failed" — the headline and its tally, the words every screen shows. */
export function checksSentence(
  reading: Pick<ChecksReadingSummary, 'summary' | 'passed' | 'failed' | 'pending'>,
  subject = 'the listed commit',
): string {
  const tally = checksTally(reading)
  return tally ? `${checksHeadline(reading.summary, subject)}: ${tally}` : checksHeadline(reading.summary, subject)
}

/** A reading of a commit's checks as a screen receives it (serialisable: the time is an ISO string). */
export interface ChecksReadingView {
  summary: ChecksSummary
  passed: number
  failed: number
  pending: number
  /** ISO time of the reading. */
  readAt: string
}

/** The listed commit's reading and the delivered commit's, side by side (a sale's evidence). */
export interface SaleChecksView {
  listed: ChecksReadingView | null
  delivered: ChecksReadingView | null
}
