/**
 * The Stripe emulator's optional data file: the account's objects, events and idempotency keys as
 * JSON, loaded at start and rewritten shortly after each change (debounced; written to a temporary
 * file, then renamed, so a crash never leaves half a file). `npm start` keeps its payments across
 * restarts this way, as Stripe does; the mail emulator's inbox (emulators/mail/store.ts) likewise.
 */
import { readDataFile, writeDataFile } from '../support/data-file.ts'
import type { StripeApiState } from './api.ts'
import type { IdempotencyEntry } from './idempotency.ts'

export interface StripeEmulatorState {
  version: 1
  api: StripeApiState
  idempotency: Array<[string, IdempotencyEntry]>
}

/** Waits this long after a change before writing, so a burst of requests is one write. */
const WRITE_DELAY_MS = 100

const OWNER = { what: "The Stripe emulator's data file", empty: 'an empty account' }

function isStripeState(state: unknown): state is StripeEmulatorState {
  const candidate = state as Partial<StripeEmulatorState> | null
  const api = candidate?.api as Partial<StripeApiState> | undefined
  const lists = ['events', 'paymentIntents', 'paymentMethods', 'cardNumbers', 'charges', 'refunds'] as const
  return candidate?.version === 1 && !!api && lists.every((name) => Array.isArray(api[name])) && Array.isArray(candidate.idempotency)
}

export function readStripeState(dataFile: string): StripeEmulatorState | undefined {
  return readDataFile(dataFile, OWNER, isStripeState)
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
    writeDataFile(this.dataFile, state)
  }
}
