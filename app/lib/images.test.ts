import { expect, it } from 'vitest'
import { imageVariant } from './images.ts'

it('derives the other renditions from the stored full-size URL', () => {
  expect(imageVariant('/uploads/ab12/full.webp', 'card')).toBe('/uploads/ab12/card.webp')
  expect(imageVariant('https://x.supabase.co/storage/v1/object/public/listing-images/ab12/full.webp', 'card')).toBe(
    'https://x.supabase.co/storage/v1/object/public/listing-images/ab12/card.webp',
  )
  expect(imageVariant('https://example.com/photo.png', 'card')).toBe('https://example.com/photo.png')
})
