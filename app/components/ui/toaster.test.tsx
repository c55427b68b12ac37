import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { showToast, Toaster } from './toaster'

describe('Toaster', () => {
  it('server-renders only the F8 notification region, never a toast', () => {
    const html = renderToString(<Toaster toast={{ id: 't1', type: 'error', title: 'Payment failed' }} />)
    expect(html).toContain('Notifications (F8)')
    expect(html).not.toContain('Payment failed')
  })

  it('keeps the caller id and generates one when missing', () => {
    expect(showToast({ id: 'fixed', title: 'Saved', type: 'success' })).toBe('fixed')
    const generated = showToast({ title: 'Card declined', type: 'error' })
    expect(generated).toBeTruthy()
    expect(generated).not.toBe('fixed')
  })
})
