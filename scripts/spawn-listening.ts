import { spawn, type ChildProcess } from 'node:child_process'
import type { ListeningReport } from '../emulators/support/http.ts'

/**
 * Starts a server as a child process (`node <args>`: `server.ts`, an emulator's `main.ts`) on ports it
 * picks itself, and resolves with the ports it reports over its IPC channel once it listens
 * (emulators/support/http.ts `reportListening`; decision 031). Give the child port 0 in its
 * environment (`PORT=0`, `STRIPE_EMULATOR_PORT=0`…): the system picks a free one while binding, so
 * no port is probed here and handed over, which another process could take in between (issue 26.18).
 */
export interface ListeningChild {
  child: ChildProcess
  /** The ports the child bound, by the names it reports (`http`; the mail emulator's `smtp` and `web`). */
  ports: Record<string, number>
}

export interface SpawnListeningOptions {
  /** The child's whole environment. */
  env: Record<string, string | undefined>
  cwd?: string
  /** Its own process group (a terminal's Ctrl-C reaches the parent only). */
  detached?: boolean
  /** Each chunk the child writes to stdout or stderr (they are piped). */
  onOutput?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void
  /** Names the child in an error ("instance 1", "the app"). */
  what: string
  /** How long it may take to report (default 180 s); then it is killed. */
  timeoutMs?: number
}

/** How many of the child's last output chunks an error quotes. */
const OUTPUT_KEPT = 100

export function spawnListening(args: string[], options: SpawnListeningOptions): Promise<ListeningChild> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env,
    detached: options.detached,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  const recent: string[] = []
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]!.on('data', (chunk: Buffer) => {
      recent.push(chunk.toString())
      if (recent.length > OUTPUT_KEPT) recent.shift()
      options.onOutput?.(chunk, stream)
    })
  }
  return new Promise<ListeningChild>((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 180_000
    const timer = setTimeout(() => {
      finish()
      child.kill('SIGKILL')
      reject(new Error(`${options.what} did not report its port within ${timeoutMs / 1000} s:\n${recent.join('')}`))
    }, timeoutMs)
    const onMessage = (message: unknown) => {
      if (!isListeningReport(message)) return
      finish()
      // The report was the channel's one use: closed, it keeps neither process running.
      child.disconnect()
      resolve({ child, ports: message.ports })
    }
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      finish()
      reject(new Error(`${options.what} exited (${signal ?? `code ${code}`}) before it reported its port:\n${recent.join('')}`))
    }
    const onError = (error: Error) => {
      finish()
      reject(error)
    }
    const finish = () => {
      clearTimeout(timer)
      child.off('message', onMessage)
      child.off('exit', onExit)
      child.off('error', onError)
    }
    child.on('message', onMessage)
    child.once('exit', onExit)
    child.once('error', onError)
  })
}

function isListeningReport(message: unknown): message is ListeningReport {
  return typeof message === 'object' && message !== null && (message as ListeningReport).type === 'listening'
}
