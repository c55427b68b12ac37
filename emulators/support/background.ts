import { setMaxListeners } from 'node:events'

/**
 * What the emulators share: work done after an answer (webhook deliveries, like
 * the hosted services send them), and the stand-alone launchers' shutdown.
 */

/** Work started after answering: tracked so tests can wait for it (`idle`), cancelled by `close`. */
export class BackgroundWork {
  private readonly inFlight = new Set<Promise<unknown>>()
  private readonly shutdown = new AbortController()

  constructor() {
    // Every pending wait (a webhook retry's back-off, a delayed delivery) listens to this one signal;
    // dozens at once are normal while an app is down (npm start's demo data warned at 11).
    setMaxListeners(0, this.shutdown.signal)
  }

  /** Aborted when the emulator closes: pending waits and requests stop. */
  get signal(): AbortSignal {
    return this.shutdown.signal
  }

  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work)
    const forget = () => this.inFlight.delete(work)
    work.then(forget, forget)
    return work
  }

  /** Resolves when nothing is in flight, including work started by work in flight. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight])
  }

  close(): void {
    this.shutdown.abort()
  }
}

/** A stand-alone emulator (`main.ts`) closes once on Ctrl-C or SIGTERM, then exits. */
export function stopOnSignals(close: () => Promise<void>): void {
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop())
  process.on('SIGTERM', () => void stop())
}
