import { clsx, type ClassValue } from 'clsx'
import { CLASSES, REMOVES } from './class-conflicts'

let groupByClass: Map<string, number> | undefined
/** Results by input: components ask for the same few hundred combinations on every render. */
const merged = new Map<string, string>()
const MERGED_CACHE_SIZE = 2000

function groups(): Map<string, number> {
  if (!groupByClass) {
    groupByClass = new Map()
    const parts = CLASSES.split(' ')
    for (let i = 0; i < parts.length; i += 2) groupByClass.set(parts[i]!, Number(parts[i + 1]))
  }
  return groupByClass
}

/**
 * Joins class names and lets later Tailwind utilities override earlier ones
 * (`cn('px-3 h-9', 'h-8')` → `px-3 h-8`), as tailwind-merge does — with its
 * answers for the app's own classes precomputed into a small table
 * (class-conflicts.ts, `npm run gen:class-conflicts`) instead of its whole
 * config in every page's JavaScript. Classes not in the table are kept as written.
 */
export function cn(...inputs: ClassValue[]): string {
  const joined = clsx(inputs)
  const known = merged.get(joined)
  if (known !== undefined) return known
  const result = resolveConflicts(joined)
  if (merged.size >= MERGED_CACHE_SIZE) merged.clear()
  merged.set(joined, result)
  return result
}

function resolveConflicts(classes: string): string {
  const tokens = classes.split(/\s+/)
  const table = groups()
  // From the end: a class is dropped when a class kept after it removes its group.
  const removed = new Set<number>()
  const kept: string[] = []
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i]!
    if (!token) continue
    const group = table.get(token)
    if (group !== undefined) {
      if (removed.has(group)) continue
      for (const other of REMOVES[group]!) removed.add(other)
    }
    kept.push(token)
  }
  return kept.reverse().join(' ')
}
