import { readdirSync } from 'node:fs'
import path from 'node:path'

/** The project's root, for the source scans below. */
export const ROOT = path.resolve(import.meta.dirname, '../..')

/**
 * The files the app runs (server.ts, app/ and db/ without their tests), relative to the root: what the
 * scans for writers of a machine's rows read (tests/integration/escrow.test.ts, machine-writers.test.ts).
 */
export function runtimeSources(): string[] {
  const files = ['server.ts']
  for (const dir of ['app', 'db']) {
    for (const entry of readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue
      files.push(path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    }
  }
  return files
}
