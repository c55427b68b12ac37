import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { OpenLoopOptions, OpenLoopRaw } from './open-loop-worker.ts'
import { startProcess } from './processes.ts'

/** One round at a fixed rate: the worker's counts, and percentiles of its latencies. */
export interface OpenLoopResult extends Pick<
  OpenLoopRaw,
  'scheduled' | 'completed' | 'non2xx' | 'statuses' | 'errors' | 'timeouts' | 'sendLagP99Ms' | 'sendLagMaxMs' | 'generatorCpuMsPerRequest'
> {
  /** The fixed rate asked for, and what was answered per second over the schedule. */
  rate: number
  completedPerSecond: number
  p50Ms: number
  p90Ms: number
  p99Ms: number
  maxMs: number
}

export interface OpenLoopTarget {
  rounds: OpenLoopResult[]
  p50Ms: number
  p90Ms: number
  p99Ms: number
  maxMs: number
  completedPerSecond: number
  timeouts: number
  /** Responses that were not 2xx/3xx over the rounds (an overloaded server shedding load). */
  non2xx: number
}

export interface OpenLoopReport {
  method: string
  /** Floor D's closed-loop maximum (the wrk rounds' mean): the rates are shares of it. */
  dMaxRequestsPerSecond: number
  /** A's closed-loop maximum, for `ownShare` (absent in results from before 2026-11-27's change). */
  aMaxRequestsPerSecond?: number
  rates: Array<{
    share: number
    rate: number
    A: OpenLoopTarget
    D: OpenLoopTarget
    'p99(A)/p99(D)': number
    /**
     * Reported, not a budget: A at the same share of *its own* maximum, against D at that share of D's
     * (the other reading of issue 20's budget, decision 025), so both definitions can be compared.
     */
    ownShare?: { rate: number; A: OpenLoopTarget; 'p99(A)/p99(D)': number }
  }>
}

/** Runs bench/lib/open-loop-worker.ts in a process of its own and returns its figures. */
export async function runOpenLoop(root: string, options: OpenLoopOptions, logFile: string): Promise<OpenLoopResult> {
  rmSync(logFile, { force: true })
  const proc = startProcess(
    'open-loop generator',
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'lib', 'open-loop-worker.ts')],
    {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, OPEN_LOOP_OPTIONS: JSON.stringify(options) },
      logFile,
    },
  )
  const code = await proc.exited
  const output = readFileSync(logFile, 'utf8')
  const line = /^OPEN_LOOP_JSON (.*)$/m.exec(output)
  if (code !== 0 || !line) throw new Error(`the open-loop generator failed (exit ${code}):\n${output.slice(-2000)}`)
  const raw = JSON.parse(line[1]!) as Omit<OpenLoopResult, 'rate' | 'completedPerSecond'>
  return { rate: options.rate, completedPerSecond: Math.round((raw.completed / options.durationS) * 10) / 10, ...raw }
}
