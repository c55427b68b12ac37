import { expect, it } from 'vitest'
import { DEPENDENCIES, FRAMEWORKS, LANGUAGES } from '../../app/lib/tech-stack.ts'
import { DEMO_LISTINGS } from './demo-data.ts'

it('demo listings use only values of the option lists', () => {
  const unknown = DEMO_LISTINGS.flatMap((l) => [
    ...l.languages.filter((v) => !(LANGUAGES as readonly string[]).includes(v)).map((v) => `language ${v}`),
    ...l.frameworks.filter((v) => !(FRAMEWORKS as readonly string[]).includes(v)).map((v) => `framework ${v}`),
    ...l.dependencies.filter((v) => !(DEPENDENCIES as readonly string[]).includes(v)).map((v) => `dependency ${v}`),
  ])
  expect([...new Set(unknown)]).toEqual([])
})
