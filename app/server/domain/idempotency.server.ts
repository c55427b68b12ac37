import { AppError } from './errors.server.ts'

/**
 * An API client's Idempotency-Key for a create, and the hash of the request it came with
 * (http/idempotency.server.ts reads both; decision 026). Each create stores them on the row it
 * makes, in the same statement, so a retry after a lost answer finds that row.
 */
export interface IdempotentCreate {
  key: string
  hash: string
}

export const IDEMPOTENCY_KEY_REUSED = 'This Idempotency-Key was already used for a different request'

/** A row made with this key is the retry's answer; made by a different request, a 422. */
export function checkReplay(stored: { idempotencyHash: string | null }, idempotent: IdempotentCreate): void {
  if (stored.idempotencyHash !== idempotent.hash) throw new AppError(422, IDEMPOTENCY_KEY_REUSED)
}
