import { randomBytes } from 'node:crypto'
import { PassThrough, Writable } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router'
import { NonceProvider } from '~/lib/nonce'
// The job modules and the database, statically: the routes import them statically already, so they are in the
// server bundle whatever this file does; importing them dynamically here only made the build warn
// (INEFFECTIVE_DYNAMIC_IMPORT) on every start that builds (issue 26.17).
import { ADMIN_ALERT_JOBS } from '~/server/domain/admin-alerts.server'
import { ESCROW_JOBS } from '~/server/domain/escrow-auto-confirm.server'
import { GITHUB_JOBS } from '~/server/domain/github-jobs.server'
import { NOTIFICATION_JOBS } from '~/server/domain/notification-sender.server'
import { RECONCILIATION_JOBS } from '~/server/domain/reconciliation.server'
import { flushListingViews } from '~/server/domain/seller-analytics.server'
import { WEBHOOK_JOBS } from '~/server/domain/webhook-sender.server'
import { isCacheCandidate, renderedPageResponse } from '~/server/http/http-cache.server'
import { routePolicyContext } from '~/server/http/route-policy.server'
import { inlineScriptHashes, securityHeaders } from '~/server/http/security-headers.server'
import { SESSION_JOBS } from '~/server/http/session-tokens.server'
import { db } from '~/server/infra/db.server'
import { startJobWorker } from '~/server/infra/jobs.server'

export const streamTimeout = 5_000

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const policy = loadContext.get(routePolicyContext)
  if (isCacheCandidate(request, policy)) return renderShareable(request, responseStatusCode, responseHeaders, routerContext, policy.csp)
  const nonce = randomBytes(16).toString('base64')
  // The CSP variant the page's route declares (route-policy.server.ts).
  for (const [name, value] of Object.entries(securityHeaders(policy.csp, nonce))) responseHeaders.set(name, value)

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    // Crawlers and no-JS clients get the whole document at once; browsers get the streamed shell.
    const readyEvent = isbot(request.headers.get('user-agent')) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true
          const body = new PassThrough({
            final(callback) {
              clearTimeout(abortTimer)
              callback()
            },
          })
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) console.error(error)
        },
      },
    )
    // Aborts a render that never finishes; cleared when the stream ends (final() above) so a
    // finished render is not kept in memory for the whole timeout.
    const abortTimer = setTimeout(abort, streamTimeout + 1000)
  })
}

/**
 * A page a shared cache may hand to many visitors (http-cache.server.ts): no
 * nonce — it would be the same for every reader — but the hash of each inline
 * script in the CSP, computed from the finished page, so it is rendered whole
 * (it is collected whole for compression anyway, decision 008). Every client
 * gets the same bytes, crawler or browser, so one cached copy serves both.
 */
function renderShareable(
  request: Request,
  status: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  csp: Parameters<typeof securityHeaders>[0],
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = []
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      onAllReady() {
        pipe(
          new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk)
              callback()
            },
            final(callback) {
              clearTimeout(abortTimer)
              const html = Buffer.concat(chunks)
              for (const [name, value] of Object.entries(securityHeaders(csp, { hashes: inlineScriptHashes(html) }))) {
                responseHeaders.set(name, value)
              }
              responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
              resolve(renderedPageResponse(html, { headers: responseHeaders, status }))
              callback()
            },
          }),
        )
      },
      onShellError(error: unknown) {
        reject(error)
      },
      onError(error: unknown) {
        status = 500
        console.error(error)
      },
    })
    const abortTimer = setTimeout(abort, streamTimeout + 1000)
  })
}

/**
 * Called by server.ts once the build is loaded (and stop() on shutdown): this
 * instance's job worker (the 72-hour auto-confirm, docs/decisions/004-job-queue.md;
 * GitHub invitations, revocations and the delivery sweep, issue 16).
 */
export async function startBackgroundJobs(): Promise<{ stop(): Promise<void> }> {
  return startJobWorker([
    ...ESCROW_JOBS,
    ...SESSION_JOBS,
    ...GITHUB_JOBS,
    ...NOTIFICATION_JOBS,
    ...ADMIN_ALERT_JOBS,
    ...RECONCILIATION_JOBS,
    ...WEBHOOK_JOBS,
  ])
}

/** Called by server.ts last on shutdown, after in-flight requests and jobs have finished. */
export async function closeDatabase(): Promise<void> {
  // The views counted in this instance's last second are written before the pool closes.
  await flushListingViews()
  await db.destroy()
}
