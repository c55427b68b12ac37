import { describe, expect, it } from 'vitest'
import { reasonPhrase } from './http-status'

describe('reasonPhrase', () => {
  it('names each status by its own phrase: no 4xx is an Internal Server Error', () => {
    expect(reasonPhrase(409)).toBe('Conflict')
    expect(reasonPhrase(404)).toBe('Not Found')
    expect(reasonPhrase(429)).toBe('Too Many Requests')
    expect(reasonPhrase(500)).toBe('Internal Server Error')
    for (let status = 400; status < 500; status++) expect(reasonPhrase(status)).not.toMatch(/Server/)
  })
})
