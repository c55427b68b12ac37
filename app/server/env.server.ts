export function requireEnv(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set. See .env.example and the README's Configuration section.`)
  return value
}

export const isProduction = process.env.NODE_ENV === 'production'

/** The public origin of the app, used to build absolute links (OAuth callback, Stripe return_url). */
export function appUrl(request?: Request): string {
  if (process.env.APP_URL) return process.env.APP_URL.replace(/\/$/, '')
  if (request) return new URL(request.url).origin
  return `http://localhost:${process.env.PORT ?? 3000}`
}
