/**
 * An emulator's optional JSON data file (the mail catcher's inbox, the Stripe emulator's account, the
 * GitHub and Supabase Auth emulators' accounts and keys): read once at start, written whole through a
 * temporary file and a rename, so a crash never leaves half a file. `what` names the file in errors ("The mail emulator's data file"), `empty` says what
 * deleting it gives ("an empty inbox").
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

export interface DataFileOwner {
  what: string
  empty: string
}

/** The file's state, or undefined when there is no file; throws when it is not JSON or `isValid` refuses it. */
export function readDataFile<T>(dataFile: string, owner: DataFileOwner, isValid: (state: unknown) => state is T): T | undefined {
  if (!existsSync(dataFile)) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(dataFile, 'utf8'))
  } catch (error) {
    throw new Error(`${owner.what} ${dataFile} is not valid JSON (delete it to start with ${owner.empty}): ${String(error)}`)
  }
  if (!isValid(parsed)) throw new Error(`${owner.what} ${dataFile} has an unknown format (delete it to start with ${owner.empty}).`)
  return parsed
}

/** Writes the whole state (owner-only permissions), atomically. */
export function writeDataFile(dataFile: string, state: unknown): void {
  mkdirSync(dirname(dataFile), { recursive: true })
  const temporary = `${dataFile}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 })
  renameSync(temporary, dataFile)
}

/** The writers with a change waiting: written when the process exits (one handler for all of them). */
const waiting = new Set<DebouncedDataFile>()
let exitHandler = false

/**
 * Writes an emulator's state a moment after it changed, once for every change made meanwhile (a burst of
 * requests is one write, and a large state — a full inbox, a busy Stripe account — is not serialized
 * for each change), at once on `flush()` (on close), and when the process exits with a change waiting
 * (`process.exit` after a failed start included). A crash (SIGKILL) loses at most the last `delayMs`. A
 * write that fails (disk full) is logged and tried again later: under `npm start` the emulators share
 * the app's process, which must not die of it.
 */
export class DebouncedDataFile {
  private timer: NodeJS.Timeout | undefined

  constructor(
    readonly dataFile: string,
    private readonly read: () => unknown,
    private readonly delayMs: number,
  ) {}

  /** Writes after `delayMs`, once for all changes made meanwhile. */
  schedule(): void {
    if (!exitHandler) {
      exitHandler = true
      process.once('exit', () => {
        for (const file of waiting) {
          try {
            file.flush()
          } catch (error) {
            console.error(`could not write ${file.dataFile} at exit:`, error instanceof Error ? error.message : error)
          }
        }
      })
    }
    waiting.add(this)
    this.timer ??= setTimeout(() => {
      try {
        this.flush()
      } catch (error) {
        console.error(
          `could not write ${this.dataFile}, trying again in ${this.delayMs} ms:`,
          error instanceof Error ? error.message : error,
        )
        this.schedule()
      }
    }, this.delayMs)
  }

  /** Writes now if a change is waiting (throws when the write fails). */
  flush(): void {
    if (!this.timer) return
    clearTimeout(this.timer)
    this.timer = undefined
    waiting.delete(this)
    writeDataFile(this.dataFile, this.read())
  }
}
