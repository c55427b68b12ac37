import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DebouncedDataFile } from './data-file.ts'

const dirs: string[] = []
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'data-file-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  vi.restoreAllMocks()
})

describe('DebouncedDataFile', () => {
  it('writes once for a burst of changes, after the delay', async () => {
    const file = join(newDir(), 'state.json')
    let reads = 0
    const writer = new DebouncedDataFile(file, () => ({ reads: ++reads }), 50)
    for (let i = 0; i < 10; i++) writer.schedule()
    expect(existsSync(file)).toBe(false)
    await sleep(150)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ reads: 1 })
  })

  it('writes a waiting change when the process exits (process.exit after a failed start)', () => {
    const file = join(newDir(), 'state.json')
    const script = `import { DebouncedDataFile } from ${JSON.stringify(join(import.meta.dirname, 'data-file.ts'))}
new DebouncedDataFile(${JSON.stringify(file)}, () => ({ kept: true }), 60_000).schedule()
process.exit(1)`
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(1)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ kept: true })
  })

  it('logs a failed write and tries again, never throwing from its timer', async () => {
    const file = join(newDir(), 'state.json')
    // A directory where the file should be: the rename fails until it is gone.
    mkdirSync(file)
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const writer = new DebouncedDataFile(file, () => ({ written: true }), 20)
    writer.schedule()
    await sleep(60)
    expect(logged).toHaveBeenCalled()
    expect(String(logged.mock.calls[0]![0])).toContain(`could not write ${file}`)
    rmSync(file, { recursive: true })
    await sleep(80)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ written: true })
  })
})
