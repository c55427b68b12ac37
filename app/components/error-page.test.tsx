import { renderToString } from 'react-dom/server'
import { UNSAFE_ErrorResponseImpl as ErrorResponse } from 'react-router'
import { describe, expect, it } from 'vitest'
import { ErrorPage } from './error-page'

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

describe('the error page (issue 26.7)', () => {
  it("titles a refusal by its own status, whatever statusText React Router gave it, and shows the refusal's message", () => {
    // What `throw data('…', { status: 409 })` becomes: React Router's default statusText is "Internal Server Error".
    const html = renderToString(<ErrorPage error={new ErrorResponse(409, 'Internal Server Error', 'This sale was never disputed')} />)
    expect(text(html)).toContain('409 Conflict')
    expect(text(html)).toContain('This sale was never disputed')
    expect(html).not.toContain('Internal Server Error')
  })

  it('says "Page not found" for a 404 and nothing of the internals for an exception', () => {
    expect(text(renderToString(<ErrorPage error={new ErrorResponse(404, 'Internal Server Error', '')} />))).toContain('Page not found')
    const crash = text(renderToString(<ErrorPage error={new Error('relation "users" does not exist')} />))
    expect(crash).toContain('Something went wrong')
    expect(crash).not.toContain('relation')
  })
})
