/**
 * The GitHub REST operations and webhook payloads the emulator implements: one list used by the
 * server's route table, by `extract-openapi.ts` (which copies exactly these from GitHub's OpenAPI
 * description into `openapi-subset.json`) and by the contract test (which validates every response
 * the emulator gives for them).
 */

interface Operation {
  /** GitHub's operationId, e.g. 'repos/add-collaborator'. */
  operationId: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** The OpenAPI path template, e.g. '/repos/{owner}/{repo}'. */
  path: string
}

export const OPERATIONS = [
  // The App itself (JWT): @octokit/app's install link reads GET /app; auth-app mints installation tokens
  { operationId: 'apps/get-authenticated', method: 'GET', path: '/app' },
  { operationId: 'apps/get-installation', method: 'GET', path: '/app/installations/{installation_id}' },
  {
    operationId: 'apps/create-installation-access-token',
    method: 'POST',
    path: '/app/installations/{installation_id}/access_tokens',
  },
  // Installation token
  { operationId: 'apps/list-repos-accessible-to-installation', method: 'GET', path: '/installation/repositories' },
  // Repositories
  { operationId: 'repos/get', method: 'GET', path: '/repos/{owner}/{repo}' },
  { operationId: 'repos/get-branch', method: 'GET', path: '/repos/{owner}/{repo}/branches/{branch}' },
  // Checks and commit statuses, releases (issue 30): the app reads them; CI and people write them on the pages
  { operationId: 'checks/list-for-ref', method: 'GET', path: '/repos/{owner}/{repo}/commits/{ref}/check-runs' },
  { operationId: 'repos/get-combined-status-for-ref', method: 'GET', path: '/repos/{owner}/{repo}/commits/{ref}/status' },
  { operationId: 'repos/get-latest-release', method: 'GET', path: '/repos/{owner}/{repo}/releases/latest' },
  // Collaborators and invitations
  { operationId: 'repos/add-collaborator', method: 'PUT', path: '/repos/{owner}/{repo}/collaborators/{username}' },
  { operationId: 'repos/check-collaborator', method: 'GET', path: '/repos/{owner}/{repo}/collaborators/{username}' },
  {
    operationId: 'repos/remove-collaborator',
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/collaborators/{username}',
  },
  { operationId: 'repos/list-invitations', method: 'GET', path: '/repos/{owner}/{repo}/invitations' },
  {
    operationId: 'repos/delete-invitation',
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/invitations/{invitation_id}',
  },
  // Users (user-to-server token, or an installation token)
  { operationId: 'users/get-authenticated', method: 'GET', path: '/user' },
  { operationId: 'users/get-by-id', method: 'GET', path: '/user/{account_id}' },
  { operationId: 'apps/list-installations-for-authenticated-user', method: 'GET', path: '/user/installations' },
] as const satisfies readonly Operation[]

export type OperationId = (typeof OPERATIONS)[number]['operationId']

interface WebhookPayload {
  /** The key under `x-webhooks` in GitHub's description, e.g. 'member-added'. */
  name: string
  /** The X-GitHub-Event header. */
  event: string
  /** The payload's `action`, when the event has one. */
  action?: string
}

export const WEBHOOKS = [
  { name: 'installation-deleted', event: 'installation', action: 'deleted' },
  { name: 'installation-repositories-added', event: 'installation_repositories', action: 'added' },
  { name: 'installation-repositories-removed', event: 'installation_repositories', action: 'removed' },
  { name: 'member-added', event: 'member', action: 'added' },
  { name: 'fork', event: 'fork' },
  { name: 'check-run-created', event: 'check_run', action: 'created' },
  { name: 'check-run-completed', event: 'check_run', action: 'completed' },
  { name: 'check-suite-completed', event: 'check_suite', action: 'completed' },
  { name: 'status', event: 'status' },
  { name: 'release-published', event: 'release', action: 'published' },
  { name: 'release-released', event: 'release', action: 'released' },
  { name: 'release-deleted', event: 'release', action: 'deleted' },
] as const satisfies readonly WebhookPayload[]
