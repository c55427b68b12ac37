import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { PurchaseGithub } from '~/server/domain/github-views.server'
import { DeliveryCell } from './delivery-cell'

const github = (over: Partial<PurchaseGithub>) =>
  ({
    state: 'invited',
    invitationUrl: 'https://github.com/acme/kit/invitations',
    repositoryUrl: 'https://github.com/acme/kit',
    forkUrl: null,
    resent: false,
    waitingOn: null,
    nextAttemptAt: null,
    message: 'Accept your invitation on GitHub within 7 days.',
    ...over,
  }) as PurchaseGithub

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim()

describe('My Purchases → Delivery (issue 16)', () => {
  it('while delivering: the invitation link and what comes next, no fork link', () => {
    const html = renderToString(<DeliveryCell status="delivering" title="Kit" github={github({})} forkUrl={null} />)
    expect(html).toContain('href="https://github.com/acme/kit/invitations"')
    expect(text(html)).toContain('Accept your invitation on GitHub of Kit (opens in a new tab)')
    expect(text(html)).toContain('Then fork the repository. Your 72-hour window starts once you have access.')
    expect(text(html)).not.toContain('View Fork')
    const resent = renderToString(
      <DeliveryCell
        status="delivering"
        title="Kit"
        github={github({ resent: true, message: 'Your first invitation expired, so we sent a new one.' })}
        forkUrl={null}
      />,
    )
    expect(text(resent)).toContain('Your first invitation expired, so we sent a new one.')
  })

  it('an invitation waiting for the buyer’s GitHub account links to connecting one', () => {
    const html = renderToString(
      <DeliveryCell
        status="delivering"
        title="Kit"
        github={github({
          state: 'queued',
          invitationUrl: null,
          waitingOn: 'buyer_github',
          message: 'Connect your GitHub account to receive your invitation.',
        })}
        forkUrl={null}
        connectGithubUrl="/github/authorize?returnTo=%2Fpurchases"
      />,
    )
    expect(html).toContain('href="/github/authorize?returnTo=%2Fpurchases"')
    expect(text(html)).toContain('Connect GitHub account')
  })

  it('a queued invitation has no link yet, only its reason', () => {
    const html = renderToString(
      <DeliveryCell
        status="delivering"
        title="Kit"
        github={github({ state: 'queued', invitationUrl: null, message: 'Invitation queued.' })}
        forkUrl={null}
      />,
    )
    expect(html).not.toContain('<a ')
    expect(text(html)).toBe('Invitation queued.')
  })

  it('once access is confirmed: Fork on GitHub, then View Fork when the fork is known', () => {
    const fork = renderToString(<DeliveryCell status="delivered" title="Kit" github={github({ state: 'accepted' })} forkUrl={null} />)
    expect(fork).toContain('href="https://github.com/acme/kit"')
    expect(text(fork)).toContain('Fork on GitHub')
    const view = renderToString(
      <DeliveryCell
        status="completed"
        title="Kit"
        github={github({ state: 'accepted', forkUrl: 'https://github.com/bob/kit' })}
        forkUrl={null}
      />,
    )
    expect(view).toContain('href="https://github.com/bob/kit"')
    expect(text(view)).toContain('View Fork of Kit (opens in a new tab)')
  })

  it('a refund ends access: no link', () => {
    const html = renderToString(<DeliveryCell status="refunded" title="Kit" github={github({ state: 'revoked' })} forkUrl={null} />)
    expect(html).not.toContain('<a ')
    expect(text(html)).toBe('Access removed')
  })

  it('manual delivery as before: the seller’s link, else Pending', () => {
    expect(text(renderToString(<DeliveryCell status="paid" title="Kit" github={null} forkUrl={null} />))).toBe('Pending')
    expect(renderToString(<DeliveryCell status="delivered" title="Kit" github={null} forkUrl="https://github.com/eli/kit" />)).toContain(
      'href="https://github.com/eli/kit"',
    )
    expect(text(renderToString(<DeliveryCell status="refunded" title="Kit" github={null} forkUrl="https://github.com/eli/kit" />))).toBe(
      '—',
    )
  })
})
