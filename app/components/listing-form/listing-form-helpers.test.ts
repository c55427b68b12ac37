import { describe, expect, it } from 'vitest'
import { removeImage } from './image-uploader'
import { customValueProblem } from './multi-select-picker'

describe('custom picker values (spec §5)', () => {
  it('must be non-empty after trimming and not a duplicate', () => {
    expect(customValueProblem('   ', [], 'language')).toBe('Enter a language')
    expect(customValueProblem(' typescript ', ['TypeScript'], 'language')).toBe('typescript is already selected')
    expect(customValueProblem(' Zig ', ['TypeScript'], 'language')).toBeNull()
  })
})

describe('removing an image in the uploader', () => {
  it('promotes the first remaining image when the main one goes', () => {
    expect(removeImage(['a', 'b', 'c'], 'a', 'a')).toEqual({ images: ['b', 'c'], main: 'b' })
    expect(removeImage(['a', 'b'], 'a', 'b')).toEqual({ images: ['a'], main: 'a' })
    expect(removeImage(['a'], 'a', 'a')).toEqual({ images: [], main: null })
  })
})
