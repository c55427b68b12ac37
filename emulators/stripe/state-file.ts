/**
 * The Stripe emulator's optional data file: the account's objects, events and idempotency keys as
 * JSON, loaded at start and rewritten shortly after each change (debounced; written to a temporary
 * file, then renamed, so a crash never leaves half a file). `npm start` keeps its payments across
 * restarts this way, as Stripe does; the mail emulator's inbox (emulators/mail/store.ts) likewise.
 */
import { DebouncedDataFile, readDataFile } from '../support/data-file.ts'
import type { StripeApiState } from './api.ts'
import type { IdempotencyEntry } from './idempotency.ts'

export interface StripeEmulatorState {
  version: 1
  api: StripeApiState
  idempotency: Array<[string, IdempotencyEntry]>
}

/**
 * Waits this long after a change before writing, so a burst of requests is one write. The whole account
 * is written each time (~13 KB a purchase, every event and charge kept as Stripe keeps them): at 100 ms a
 * steady 2 purchases a second serialized it on nearly every one (the soak, bench/soak.ts).
 */
export const WRITE_DELAY_MS = 1_000

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

/** Writes the account a moment after each change (WRITE_DELAY_MS), once for a burst; flush() on close. */
export function stateFileWriter(dataFile: string, read: () => Omit<StripeEmulatorState, 'version'>): DebouncedDataFile {
  return new DebouncedDataFile(dataFile, (): StripeEmulatorState => ({ version: 1, ...read() }), WRITE_DELAY_MS)
}
