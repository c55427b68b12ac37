import type { ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { spawnListening } from '../../scripts/spawn-listening.ts'

/**
 * Starts `tsx server.ts` with the given env on a port it binds itself (PORT=0, as are its emulators' unless
 * `env` says otherwise) and resolves with the process and that port once it reports it (issue 26.18).
 */
export async function startApp(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  // node itself (not npx), so SIGTERM reaches the server and not a wrapper that leaves it orphaned.
  const { child, ports } = await spawnListening(['--import', 'tsx', 'server.ts'], {
    env: {
      ...process.env,
      SUPABASE_EMULATOR_PORT: '0',
      STRIPE_EMULATOR_PORT: '0',
      GITHUB_EMULATOR_PORT: '0',
      MAIL_EMULATOR_SMTP_PORT: '0',
      MAIL_EMULATOR_WEB_PORT: '0',
      S3_EMULATOR_PORT: '0',
      ...env,
      PORT: '0',
    },
    onOutput: (chunk, stream) => {
      if (stream === 'stderr') process.stderr.write(chunk)
      else if (process.env.DRILL_VERBOSE) process.stdout.write(chunk)
    },
    what: 'the app',
    timeoutMs: 120_000,
  })
  const url = `http://127.0.0.1:${ports.http}`
  if (!(await fetch(`${url}/healthz`)).ok) throw new Error(`the app at ${url} is not healthy`)
  return { child, url }
}

export async function stopApp(child: ChildProcess) {
  if (child.exitCode !== null) return
  child.kill('SIGTERM')
  await new Promise((r) => child.once('exit', r))
}

/**
 * Signs in through the auth emulator's real PKCE flow over HTTP (authorize →
 * consent → token) and returns an access token for Bearer calls.
 */
export async function emulatorAccessToken(authUrl: string, email: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const form = new URLSearchParams({
    provider: 'github',
    redirect_to: 'http://localhost/cb',
    code_challenge: challenge,
    code_challenge_method: 's256',
    email,
    full_name: 'Drill User',
  })
  const consent = await fetch(`${authUrl}/auth/v1/authorize/consent`, { method: 'POST', body: form, redirect: 'manual' })
  const code = new URL(consent.headers.get('location') ?? '', 'http://x').searchParams.get('code')
  if (!code) throw new Error(`no code from the auth emulator (${consent.status})`)
  const token = await fetch(`${authUrl}/auth/v1/token?grant_type=pkce`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
  })
  const session = (await token.json()) as { access_token?: string }
  if (!session.access_token) throw new Error(`token exchange failed (${token.status})`)
  return session.access_token
}

/** Prints the drill's verdict: every failure found, or that it passed (exit code 1 on failure). */
export function reportDrill(failures: (string | false)[]) {
  const found = failures.filter(Boolean)
  if (found.length) {
    console.error(`drill FAILED:\n- ${found.join('\n- ')}`)
    process.exitCode = 1
  } else {
    console.log('drill passed')
  }
}
