/**
 * The one domain error. A domain function throws it when a request cannot be
 * carried out for a reason the caller should see (wrong state, not allowed,
 * bad input); every surface maps it the same way: `/api/*` answers
 * `{ error, fields? }` (the field errors, under the API's existing name) with `status`, a screen shows `message` (and the
 * field errors next to their fields).
 */
export type AppErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 502 | 503

export class AppError extends Error {
  readonly status: AppErrorStatus
  readonly fieldErrors?: Record<string, string[]>
  /** Extra JSON members for the API answer (e.g. `{ field }`, `{ requiresOnboarding }`). */
  readonly extra?: Record<string, unknown>
  /** Headers every surface sends with the answer: a 429's `Retry-After` (README: every 429 carries it). */
  readonly headers: Record<string, string>

  constructor(
    status: AppErrorStatus,
    message: string,
    options: {
      fieldErrors?: Record<string, string[]>
      extra?: Record<string, unknown>
      cause?: unknown
      /** Seconds until a 429's client may try again (a whole minute when the thrower cannot tell). */
      retryAfter?: number
      /** Further headers of the answer (e.g. a 401's `WWW-Authenticate`). */
      headers?: Record<string, string>
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AppError'
    this.status = status
    this.fieldErrors = options.fieldErrors
    this.extra = options.extra
    this.headers = {
      ...(status === 429 ? { 'Retry-After': String(Math.max(1, Math.ceil(options.retryAfter ?? 60))) } : {}),
      ...options.headers,
    }
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError
}
