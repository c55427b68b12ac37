import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs'

/**
 * Every process the benchmark starts, each in a process group of its own so
 * that stopping it also stops whatever it spawned. Stopped at the end of the
 * run, on failure, on Ctrl-C and (forcibly) when the harness exits.
 */
export interface Managed {
  name: string
  child: ChildProcess
  pid: number
  logFile: string
  exited: Promise<number | null>
}

const running = new Set<Managed>()

export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; logFile: string },
): Managed {
  const log = openSync(options.logFile, 'a')
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', log, log] })
  closeSync(log)
  if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`)
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const managed: Managed = { name, child, pid: child.pid, logFile: options.logFile, exited }
  running.add(managed)
  void exited.then(() => running.delete(managed))
  return managed
}

function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal)
  } catch {
    // already gone
  }
}

/** SIGTERM (the servers finish in-flight requests and exit), then SIGKILL after the grace period. */
export async function stopProcess(managed: Managed, graceMs = 8_000): Promise<void> {
  if (!running.has(managed)) return
  signalGroup(managed.pid, 'SIGTERM')
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref())
  if ((await Promise.race([managed.exited, timer])) === 'timeout') {
    signalGroup(managed.pid, 'SIGKILL')
    await managed.exited
  }
  // The group may still hold children of the leader; they must not outlive the run.
  signalGroup(managed.pid, 'SIGKILL')
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((m) => stopProcess(m)))
}

/** Last resort when the harness exits without having stopped everything (synchronous). */
export function killAllNow() {
  for (const managed of running) signalGroup(managed.pid, 'SIGKILL')
}

/** Polls url until it answers 2xx, the process exits, or the timeout passes. */
export async function waitForHttp(managed: Managed, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let exitCode: number | null | undefined
  void managed.exited.then((code) => (exitCode = code))
  let lastError = ''
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`${managed.name} exited (code ${exitCode}) before answering; see ${managed.logFile}`)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) })
      await response.arrayBuffer()
      if (response.ok) return
      lastError = `HTTP ${response.status}`
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`${managed.name} did not answer ${url} within ${timeoutMs / 1000} s (${lastError}); see ${managed.logFile}`)
}

function childrenOf(): Map<number, number[]> {
  const map = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // Field 4 (ppid) comes after the parenthesised command name, which may contain spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const list = map.get(ppid) ?? []
      list.push(Number(entry))
      map.set(ppid, list)
    } catch {
      // exited while we looked
    }
  }
  return map
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) : 0
  } catch {
    return 0
  }
}

/** Resident memory of a process and all its descendants, in kB (one sample). */
export function treeRssKb(pid: number): number {
  const children = childrenOf()
  let total = 0
  const stack = [pid]
  while (stack.length) {
    const current = stack.pop()!
    total += statusKb(current, 'VmRSS')
    stack.push(...(children.get(current) ?? []))
  }
  return total
}

/** The kernel's high-water mark of the process's resident memory since it started, in kB. */
export function peakRssKb(pid: number): number {
  return statusKb(pid, 'VmHWM')
}

/** Samples the tree's RSS every intervalMs until stopped; returns the largest sample in kB. */
export function sampleRss(pid: number, intervalMs = 200): { stop: () => number } {
  let peak = treeRssKb(pid)
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssKb(pid))
  }, intervalMs)
  return {
    stop: () => {
      clearInterval(timer)
      return Math.max(peak, treeRssKb(pid))
    },
  }
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux, whatever the kernel's HZ). */
const USER_HZ = 100

/** CPU time (user + system) of a process and all its descendants so far (live, or exited and waited for), in ms. */
export function treeCpuMs(pid: number): number {
  const children = childrenOf()
  let ticks = 0
  const stack = [pid]
  while (stack.length) {
    const current = stack.pop()!
    try {
      // Fields after the command name (which may hold spaces): utime, stime, then cutime and cstime —
      // the CPU of children already exited and waited for (PostgreSQL's backends end with their connections).
      const stat = readFileSync(`/proc/${current}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
    } catch {
      // gone
    }
    stack.push(...(children.get(current) ?? []))
  }
  return (ticks * 1000) / USER_HZ
}
