import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'

/** Starts `tsx server.ts` with the given env and resolves once /healthz answers. */
export async function startApp(env: Record<string, string>, port: number): Promise<ChildProcess> {
  // node itself (not npx), so SIGTERM reaches the server and not a wrapper that leaves it orphaned.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (chunk) => process.env.DRILL_VERBOSE && process.stdout.write(chunk))
  child.stderr!.on('data', (chunk) => process.stderr.write(chunk))
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the app exited during start-up')
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error('the app did not become healthy in 120 s')
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
