import { useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Field, FormErrors } from './field'
import { Input } from './input'
import { NativeSelect } from './native-select'
import { Switch } from './switch'
import { Textarea } from './textarea'

const schema = z.object({
  title: z.string().min(3, 'Use at least 3 characters'),
  body: z.string().optional(),
  category: z.enum(['app', 'template']),
  featured: z.boolean().optional(),
})

function TestForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: 'listing',
    lastResult,
    defaultValue: { title: 'Hello', body: 'Long text', category: 'template', featured: true },
  })
  return (
    <form id={form.id} method="post">
      <FormErrors meta={form} />
      <Field meta={fields.title} label="Title" description="Shown on cards">
        {(props) => <Input {...props} />}
      </Field>
      <Field meta={fields.body} label="Body" control="textarea">
        {(props) => <Textarea {...props} />}
      </Field>
      <Field meta={fields.category} label="Category" control="select">
        {(props) => (
          <NativeSelect {...props}>
            <option value="app">App</option>
            <option value="template">Template</option>
          </NativeSelect>
        )}
      </Field>
      <Field meta={fields.featured} label="Featured" control="checkbox">
        {(props) => <Switch {...props} />}
      </Field>
    </form>
  )
}

function parse(html: string) {
  const tag = (id: string) => {
    const match = new RegExp(`<[a-z]+[^>]*\\bid="${id}"[^>]*>`).exec(html)
    if (!match) throw new Error(`no element with id ${id}`)
    return match[0]
  }
  const attr = (element: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(element)?.[1] ?? null
  return { tag, attr }
}

describe('Field', () => {
  it('labels the control and links its description without errors', () => {
    const html = renderToString(<TestForm />)
    const { tag, attr } = parse(html)
    const input = tag('listing-title')
    expect(html).toContain('for="listing-title"')
    expect(attr(input, 'name')).toBe('title')
    expect(attr(input, 'value')).toBe('Hello')
    expect(attr(input, 'aria-invalid')).toBeNull()
    expect(attr(input, 'aria-describedby')).toBe('listing-title-description')
    expect(html).toMatch(/id="listing-title-description"[^>]*>Shown on cards</)
    // Inside its <form>, so no `form` attribute that could detach it.
    expect(attr(input, 'form')).toBeNull()
  })

  it('wires aria-invalid and aria-describedby to the rendered error message', () => {
    const formData = new FormData()
    formData.set('title', 'ab')
    formData.set('category', 'nope')
    const lastResult = parseWithZod(formData, { schema }).reply({ formErrors: ['Could not save'] })
    const html = renderToString(<TestForm lastResult={lastResult} />)
    const { tag, attr } = parse(html)

    const input = tag('listing-title')
    expect(attr(input, 'aria-invalid')).toBe('true')
    const describedBy = attr(input, 'aria-describedby')?.split(' ') ?? []
    expect(describedBy).toContain('listing-title-error')
    expect(describedBy).toContain('listing-title-description')

    const error = tag('listing-title-error')
    expect(attr(error, 'role')).toBe('alert')
    expect(attr(error, 'class')).toContain('text-destructive')
    expect(html).toMatch(/id="listing-title-error"[^>]*><ul[^>]*><li>Use at least 3 characters<\/li>/)

    const select = tag('listing-category')
    expect(attr(select, 'aria-invalid')).toBe('true')
    expect(attr(select, 'aria-describedby')).toBe('listing-category-error')

    expect(html).toMatch(/id="listing-error"[^>]*role="alert"/)
    expect(html).toContain('Could not save')
    // Submitted values are kept so a no-JS round trip does not lose input.
    expect(attr(input, 'value')).toBe('ab')
  })

  it('renders textarea, select and switch as native, submittable controls', () => {
    const html = renderToString(<TestForm />)
    const { tag, attr } = parse(html)
    expect(html).toMatch(/<textarea[^>]*name="body"[^>]*>Long text<\/textarea>/)
    expect(tag('listing-category').startsWith('<select')).toBe(true)
    expect(html).toMatch(/<option value="template" selected="">Template<\/option>/)

    const checkbox = tag('listing-featured')
    expect(attr(checkbox, 'type')).toBe('checkbox')
    expect(attr(checkbox, 'role')).toBe('switch')
    expect(attr(checkbox, 'name')).toBe('featured')
    expect(attr(checkbox, 'value')).toBe('on')
    expect(checkbox).toContain('checked=""')
  })
})
