import { App } from '@octokit/app'
import { Octokit } from '@octokit/rest'
import { Webhooks } from '@octokit/webhooks'
import { config } from './env.server.ts'

/**
 * The Forkmarket GitHub App as a client (issue 16): the real `@octokit/app` /
 * `@octokit/rest` / `@octokit/webhooks`, configured from the GITHUB_* variables.
 * Locally the launcher points GITHUB_API_URL at the GitHub emulator
 * (emulators/github) and supplies its App credentials, so the same code runs.
 *
 * Every request has a timeout; failures are classified by `githubFailure` for
 * the delivery jobs (retry with backoff, retry at the stated time, or give up).
 */

export const DEFAULT_GITHUB_API_URL = 'https://api.github.com'
/** A GitHub call that takes longer is abandoned (and retried later by the job that made it). */
export const GITHUB_TIMEOUT_MS = 10_000

/** The GitHub App is configured (or supplied by the launcher's emulator); without it every listing is delivered by its seller. */
export function githubEnabled(): boolean {
  return config().GITHUB_APP_ID !== undefined
}

export function githubApiUrl(): string {
  return config().GITHUB_API_URL ?? DEFAULT_GITHUB_API_URL
}

let timeoutMs = GITHUB_TIMEOUT_MS

/** Tests shorten the timeout to exercise it without waiting 10 s. */
export function setGithubTimeout(ms: number = GITHUB_TIMEOUT_MS): void {
  timeoutMs = ms
}

/** fetch with this module's timeout (unless the caller passed its own signal). */
const timedFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) })

function restClass(baseUrl: string) {
  return Octokit.defaults({ baseUrl, request: { fetch: timedFetch }, userAgent: 'forkmarket' })
}

type RestOctokit = InstanceType<typeof Octokit>

let cached: { key: string; app: App<{ Octokit: ReturnType<typeof restClass> }>; webhooks: Webhooks } | undefined

function appState() {
  const env = config()
  if (
    !env.GITHUB_APP_ID ||
    !env.GITHUB_APP_PRIVATE_KEY ||
    !env.GITHUB_APP_CLIENT_ID ||
    !env.GITHUB_APP_CLIENT_SECRET ||
    !env.GITHUB_WEBHOOK_SECRET
  ) {
    throw new Error('The GitHub App is not configured (GITHUB_APP_ID and the others): GitHub delivery is off')
  }
  const key = [env.GITHUB_APP_ID, githubApiUrl(), env.GITHUB_APP_CLIENT_ID, env.GITHUB_WEBHOOK_SECRET].join('|')
  if (cached?.key !== key) {
    const app = new App({
      appId: env.GITHUB_APP_ID,
      privateKey: env.GITHUB_APP_PRIVATE_KEY,
      oauth: { clientId: env.GITHUB_APP_CLIENT_ID, clientSecret: env.GITHUB_APP_CLIENT_SECRET },
      webhooks: { secret: env.GITHUB_WEBHOOK_SECRET },
      Octokit: restClass(githubApiUrl()),
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    })
    cached = { key, app, webhooks: new Webhooks({ secret: env.GITHUB_WEBHOOK_SECRET }) }
  }
  return cached
}

/** The App (JWT-authenticated `app.octokit`, installation clients, the OAuth web flow). */
export function githubApp() {
  return appState().app
}

/** A client authenticated as one installation (its token is created and cached by @octokit/auth-app). */
export async function installationOctokit(installationId: number): Promise<RestOctokit> {
  return (await githubApp().getInstallationOctokit(installationId)) as unknown as RestOctokit
}

/** A client acting as a GitHub user (a user-to-server token from the App's OAuth). */
export function userOctokit(token: string): RestOctokit {
  const Rest = restClass(githubApiUrl())
  return new Rest({ auth: token })
}

/** Verifies `X-Hub-Signature-256` over the raw body (the App's webhook secret). */
export async function verifyGithubSignature(rawBody: string, signature: string | null): Promise<boolean> {
  if (!signature || !githubEnabled()) return false
  try {
    return await appState().webhooks.verify(rawBody, signature)
  } catch {
    return false
  }
}

// --- GitHub's ids and names ---------------------------------------------------------------

/** A GitHub numeric id from a payload or an API answer (exact as a JS number below 2^53). */
export function githubId(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null
}

/** `owner/repo` → its two parts. */
export function splitFullName(fullName: string): { owner: string; repo: string } {
  const [owner = '', repo = ''] = fullName.split('/')
  return { owner, repo }
}

// --- Failures ---------------------------------------------------------------------------

export type GithubFailure =
  /** Try again at `retryAt` (5xx, timeouts, rate limits, the 50-invitations-a-day limit). */
  | { kind: 'retry'; retryAt: Date; waitingOn: 'github_error' | 'rate_limit' | 'invitation_limit'; message: string }
  /** 404: the repository, the installation or the account is gone (or the App lost access to it). */
  | { kind: 'not_found'; message: string }
  /** Any other refusal: retrying will not help. */
  | { kind: 'refused'; status: number; message: string }

interface ErrorLike {
  status?: unknown
  message?: unknown
  name?: unknown
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown }
}

const MINUTE = 60_000
/** 5xx and timeouts: 30 s, 1 min, 2 min, … at most an hour. */
export function backoffMs(attempt: number): number {
  return Math.min(60 * MINUTE, 30_000 * 2 ** Math.max(0, attempt - 1))
}
/** The 50-a-day limit frees up as the oldest invitations of the last 24 hours age out: look again in an hour. */
export const INVITATION_LIMIT_RETRY_MS = 60 * MINUTE

function header(error: ErrorLike, name: string): string | undefined {
  const value = error.response?.headers?.[name]
  return value === undefined ? undefined : String(value)
}

function detail(error: ErrorLike): string {
  const data = error.response?.data as { message?: unknown; errors?: Array<{ message?: unknown }> } | undefined
  const inner = data?.errors
    ?.map((e) => (typeof e?.message === 'string' ? e.message : ''))
    .filter(Boolean)
    .join('; ')
  const message = typeof data?.message === 'string' ? data.message : typeof error.message === 'string' ? error.message : 'GitHub error'
  return inner ? `${message}: ${inner}` : message
}

/** GitHub's 422 when a repository has had 50 invitations in 24 hours (the wording is not published). */
function isInvitationLimit(error: ErrorLike): boolean {
  return /invitation/i.test(detail(error)) && /limit|exceeded/i.test(detail(error))
}

/**
 * What to do about a failed GitHub call (`attempt` counts from 1): rate limits
 * (403/429 with `retry-after` or `x-ratelimit-remaining: 0` and
 * `x-ratelimit-reset`) are retried at the stated time, 5xx and timeouts with
 * backoff, the 50-a-day invitation limit an hour later.
 */
export function githubFailure(error: unknown, attempt: number, now: Date): GithubFailure {
  const e = (error ?? {}) as ErrorLike
  const status = typeof e.status === 'number' ? e.status : 0
  const retryAfter = header(e, 'retry-after')
  const remaining = header(e, 'x-ratelimit-remaining')
  const reset = header(e, 'x-ratelimit-reset')
  if (status === 403 || status === 429) {
    if (retryAfter !== undefined && Number.isFinite(Number(retryAfter))) {
      return {
        kind: 'retry',
        retryAt: new Date(now.getTime() + Math.max(1, Number(retryAfter)) * 1000),
        waitingOn: 'rate_limit',
        message: `GitHub rate limit: retrying after ${retryAfter} s`,
      }
    }
    if (remaining === '0' && reset !== undefined && Number.isFinite(Number(reset))) {
      const at = new Date(Math.max(now.getTime() + 1000, Number(reset) * 1000))
      return { kind: 'retry', retryAt: at, waitingOn: 'rate_limit', message: `GitHub rate limit: retrying at ${at.toISOString()}` }
    }
    if (status === 429 || /rate limit/i.test(detail(e))) {
      // A secondary rate limit without a stated time: GitHub asks for at least a minute.
      return {
        kind: 'retry',
        retryAt: new Date(now.getTime() + Math.max(MINUTE, backoffMs(attempt))),
        waitingOn: 'rate_limit',
        message: 'GitHub rate limit',
      }
    }
    return { kind: 'refused', status, message: detail(e) }
  }
  if (status === 404) return { kind: 'not_found', message: detail(e) }
  if (status === 422 && isInvitationLimit(e)) {
    return {
      kind: 'retry',
      retryAt: new Date(now.getTime() + INVITATION_LIMIT_RETRY_MS),
      waitingOn: 'invitation_limit',
      message: "GitHub's limit of 50 invitations a day on this repository was reached",
    }
  }
  if (status >= 500 || status === 0) {
    // 5xx, and no answer at all (a timeout, a refused connection).
    const what = status
      ? `GitHub answered ${status}`
      : `GitHub did not answer (${typeof e.name === 'string' && e.name !== 'Error' ? e.name : typeof e.message === 'string' ? e.message : 'network error'})`
    return { kind: 'retry', retryAt: new Date(now.getTime() + backoffMs(attempt)), waitingOn: 'github_error', message: what }
  }
  return { kind: 'refused', status, message: detail(e) }
}

/** GitHub's web address for this API (github.com; GitHub Enterprise without /api/v3; the emulator serves both on one address). */
export function githubWebUrl(): string {
  const api = githubApiUrl()
  if (/^https:\/\/api\.github\.com$/.test(api)) return 'https://github.com'
  if (/^https:\/\/api\..*\.ghe\.com$/.test(api)) return api.replace('://api.', '://')
  return api.replace(/\/api\/v3$/, '')
}

/** Forgets the App client and its cached tokens (tests that move the emulator's clock past a token's hour). */
export function resetGithubClients(): void {
  cached = undefined
}
