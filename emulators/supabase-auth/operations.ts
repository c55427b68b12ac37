/**
 * The GoTrue operations the emulator implements that GoTrue's published OpenAPI description
 * (`openapi.yaml` in supabase/auth) describes. `/.well-known/jwks.json` is served too but is not in
 * the description; the stand-in provider page (`/authorize/consent`) and the avatars belong to the
 * emulator, standing in for GitHub's and Google's own sites.
 */
export const OPERATIONS = [
  { method: 'GET', path: '/authorize' },
  { method: 'POST', path: '/token' },
  { method: 'GET', path: '/user' },
  { method: 'POST', path: '/logout' },
  { method: 'GET', path: '/settings' },
  { method: 'GET', path: '/health' },
] as const

export type Operation = (typeof OPERATIONS)[number]
export type OperationKey = `${Operation['method']} ${Operation['path']}`

export function operationKey(method: string, path: string): OperationKey | undefined {
  const found = OPERATIONS.find((op) => op.method === method && op.path === path)
  return found ? `${found.method} ${found.path}` : undefined
}
