import type { JobDefinition } from '../infra/jobs.server.ts'
import { GITHUB_REVOKE_TASK } from './escrow.server.ts'
import { GITHUB_SWEEP_TASK, sweepTask } from './github-delivery-sweep.server.ts'
import { GITHUB_INVITE_TASK, inviteTask } from './github-delivery.server.ts'
import { revokeTask } from './github-revocation.server.ts'

/** GitHub delivery's jobs for the worker (entry.server.tsx passes them with the others); each task lives beside what it runs. */
export const GITHUB_JOBS: readonly JobDefinition[] = [
  { name: GITHUB_INVITE_TASK, task: inviteTask },
  { name: GITHUB_REVOKE_TASK, task: revokeTask },
  // Polling is the fallback for lost webhooks; it also sends what a lost job did not, and applies the deadlines.
  { name: GITHUB_SWEEP_TASK, task: sweepTask, sweep: '*/10 * * * *', runAtStartup: true },
]
