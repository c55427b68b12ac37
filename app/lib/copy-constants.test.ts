import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Issue 15.3: the fee, the seller's share and the dispute window are written
 * into page copy from their constants (PLATFORM_FEE_PERCENT,
 * SELLER_SHARE_PERCENT, DISPUTE_WINDOW_HOURS / _DAYS), never typed in, so a
 * change of rule changes every sentence. Comments may name the numbers.
 */
const TYPED_IN = [/\b15 ?%/, /\b85 ?%/, /\b72[- ]hours?\b/, /\b3[- ]days?\b/, /\$(?:15|85)\.00\b/]

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** The code without its comments (block, JSX and line comments; `//` inside a URL stays). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[\s;{}(),])\/\/.*$/gm, '$1')
}

function typedInPolicyNumbers(source: string): string[] {
  return withoutComments(source)
    .split('\n')
    .filter((line) => TYPED_IN.some((pattern) => pattern.test(line)))
    .map((line) => line.trim())
}

describe('policy numbers in copy come from the constants', () => {
  it('finds a typed-in number (and ignores comments)', () => {
    expect(typedInPolicyNumbers("const copy = 'You keep 85% of every sale.'")).toHaveLength(1)
    expect(typedInPolicyNumbers('<p>within 72 hours of delivery</p>')).toHaveLength(1)
    expect(typedInPolicyNumbers('<p>a 3-day window</p>')).toHaveLength(1)
    expect(typedInPolicyNumbers('// the 72-hour window\n/* 15 % fee */ const x = 1')).toEqual([])
    expect(typedInPolicyNumbers('<p>within {DISPUTE_WINDOW_HOURS} hours, a {PLATFORM_FEE_PERCENT}% fee</p>')).toEqual([])
  })

  it('no page, component or server message types them in', () => {
    const offenders = ['app/routes', 'app/components', 'app/server'].flatMap((dir) =>
      sourceFiles(dir).flatMap((file) => typedInPolicyNumbers(readFileSync(file, 'utf8')).map((line) => `${file}: ${line}`)),
    )
    expect(offenders).toEqual([])
  })
})
