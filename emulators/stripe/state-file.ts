/**
 * The Stripe emulator's optional data file: the account's objects, events and idempotency keys as
 * JSON, loaded at start and rewritten shortly after each change (debounced; written to a temporary
 * file, then renamed, so a crash never leaves half a file). `npm start` keeps its payments across
 * restarts this way, as Stripe does; the mail emulator's inbox (emulators/mail/store.ts) likewise.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { StripeApiState } from './api.ts'
import type { IdempotencyEntry } from './idempotency.ts'

export interface StripeEmulatorState {
  version: 1
  api: StripeApiState
  idempotency: Array<[string, IdempotencyEntry]>
}

/** Waits this long after a change before writing, so a burst of requests is one write. */
const WRITE_DELAY_MS = 100

export function readStripeState(dataFile: string): StripeEmulatorState | undefined {
  if (!existsSync(dataFile)) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(dataFile, 'utf8'))
  } catch (error) {
    throw new Error(
      `The Stripe emulator's data file ${dataFile} is not valid JSON (delete it to start with an empty account): ${String(error)}`,
    )
  }
  const state = parsed as Partial<StripeEmulatorState> | null
  const api = state?.api as Partial<StripeApiState> | undefined
  const lists = ['events', 'paymentIntents', 'paymentMethods', 'cardNumbers', 'charges', 'refunds'] as const
  if (state?.version !== 1 || !api || !lists.every((name) => Array.isArray(api[name])) || !Array.isArray(state.idempotency)) {
    throw new Error(`The Stripe emulator's data file ${dataFile} has an unknown format (delete it to start with an empty account).`)
  }
  return state as StripeEmulatorState
}

export class StateFileWriter {
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly dataFile: string,
    private readonly read: () => Omit<StripeEmulatorState, 'version'>,
  ) {}

  /** Writes after WRITE_DELAY_MS, once for all changes made meanwhile. */
  schedule(): void {
    this.timer ??= setTimeout(() => this.flush(), WRITE_DELAY_MS)
  }

  /** Writes now if a change is waiting (on close; a crash loses at most the last WRITE_DELAY_MS). */
  flush(): void {
    if (!this.timer) return
    clearTimeout(this.timer)
    this.timer = undefined
    const state: StripeEmulatorState = { version: 1, ...this.read() }
    mkdirSync(dirname(this.dataFile), { recursive: true })
    const temporary = `${this.dataFile}.${process.pid}.tmp`
    writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 })
    renameSync(temporary, this.dataFile)
  }
}
