import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { twMerge } from 'tailwind-merge'
import { describe, expect, it } from 'vitest'
import { buildClassConflictTable, classTokensInSource, renderTableModule, TABLE_FILE } from '../../../tests/tools/class-conflicts'
import { cn } from './cn'

const tokens = classTokensInSource()
// The classes that can override one another, drawn more often so conflicts are actually tried.
const conflicting = buildClassConflictTable(tokens)
  .classes.split(' ')
  .filter((_, i) => i % 2 === 0)
const asSet = (classes: string) => new Set(classes.split(/\s+/).filter(Boolean))

describe('cn', () => {
  it('has a conflict table made from the classes app/ writes today (else: npm run gen:class-conflicts)', () => {
    expect(readFileSync(TABLE_FILE, 'utf8')).toBe(renderTableModule(buildClassConflictTable(tokens)))
  }, 30_000)

  it('keeps what tailwind-merge keeps, for any mix of the classes app/ writes', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof({ arbitrary: fc.constantFrom(...conflicting), weight: 4 }, { arbitrary: fc.constantFrom(...tokens), weight: 1 }),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        (classes) => {
          expect(asSet(cn(...classes))).toEqual(asSet(twMerge(classes.join(' '))))
        },
      ),
      { numRuns: 5000 },
    )
  })

  it('overrides the way components rely on', () => {
    expect(cn('inline-flex h-9 px-4 py-2 text-sm', 'h-8 px-3')).toBe('inline-flex py-2 text-sm h-8 px-3')
    expect(cn('p-4', 'px-2')).toBe('p-4 px-2')
    expect(cn('px-2', 'p-4')).toBe('p-4')
    expect(cn('text-sm text-muted-foreground', 'text-destructive')).toBe('text-sm text-destructive')
    expect(cn('size-9', false, null, undefined, { 'size-8': true })).toBe('size-8')
    expect(cn('not-a-tailwind-class', 'custom')).toBe('not-a-tailwind-class custom')
    expect(cn('')).toBe('')
  })
})
