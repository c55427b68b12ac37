import { describe, expect, it } from 'vitest'
import type { GithubDelivery, GithubDeliveryState } from '../../../db/schema.ts'
import { decideDelivery, DELIVERY_TRANSITIONS, type DeliveryEvent, type DeliveryEventData } from './github-delivery-transitions.server.ts'
import { UNCHANGED } from './state-machine.server.ts'

const NOW = new Date('2026-03-01T12:00:00Z')
const INVITED_AT = new Date('2026-02-27T09:00:00Z')
const ALL: GithubDeliveryState[] = ['queued', 'invited', 'accepted', 'revoked', 'failed']

function delivery(state: GithubDeliveryState, fields: Partial<GithubDelivery> = {}): GithubDelivery {
  return {
    transactionId: '00000000-0000-4000-8000-000000000001',
    state,
    attempts: 2,
    resendCount: 0,
    lastError: 'GitHub answered 502',
    waitingOn: null,
    ...fields,
  } as GithubDelivery
}

const DATA: DeliveryEventData = {
  now: NOW,
  attempts: 3,
  login: 'octobuyer',
  invitation: { id: 42, html_url: 'https://github.com/launchkit-labs/saas-starter/invitations' },
  buyerGithubId: 9001,
  buyerLogin: 'octobuyer',
  invitedAt: INVITED_AT,
  head: { sha: 'abc123', date: INVITED_AT },
  waitingOn: 'invitation_limit',
  retryAt: new Date('2026-03-02T12:00:00Z'),
  error: 'GitHub refused the invitation',
  forkUrl: 'https://github.com/octobuyer/saas-starter',
  revocation: 'invitation_canceled',
}

describe('the GitHub delivery table (issue 27.4)', () => {
  for (const rule of DELIVERY_TRANSITIONS) {
    for (const from of rule.from) {
      it(`${rule.event}: ${from} → ${rule.to === UNCHANGED ? from : rule.to}`, () => {
        // A row every guard lets through (buyer_connected's: the delivery waits on the buyer's account).
        const row = delivery(from, { waitingOn: 'buyer_github' })
        const decision = decideDelivery(row, rule.event, DATA)
        expect(decision).toEqual({ ok: true, rule, to: rule.to === UNCHANGED ? from : rule.to })
        // The runner writes the state; a rule writes only what the event brings.
        expect(rule.set(row, DATA)).not.toHaveProperty('state')
      })
    }
  }

  it('every other state refuses each event (the step finds the delivery moved on, and writes nothing)', () => {
    const events = [...new Set(DELIVERY_TRANSITIONS.map((rule) => rule.event))]
    for (const event of events) {
      const from = DELIVERY_TRANSITIONS.filter((rule) => rule.event === event).flatMap((rule) => rule.from)
      for (const state of ALL.filter((s) => !from.includes(s)))
        expect(decideDelivery(delivery(state), event, DATA), `${event} from ${state}`).toEqual({ ok: false })
    }
    expect(decideDelivery(delivery('accepted'), 'delivery_failed', DATA)).toEqual({ ok: false })
    expect(decideDelivery(delivery('revoked'), 'revoked', DATA)).toEqual({ ok: false })
    expect(decideDelivery(delivery('failed'), 'invitation_sent', DATA)).toEqual({ ok: false })
    expect(decideDelivery(delivery('queued'), 'invitation_resent', DATA)).toEqual({ ok: false })
  })

  it('a revoked delivery is final: nothing is recorded on it', () => {
    for (const event of new Set(DELIVERY_TRANSITIONS.map((rule) => rule.event)))
      expect(decideDelivery(delivery('revoked'), event, DATA), event).toEqual({ ok: false })
  })

  it('throws on an event the table does not have (a programming error, not a refusal)', () => {
    expect(() => decideDelivery(delivery('queued'), 'melted' as DeliveryEvent, DATA)).toThrow('Unknown event melted')
  })

  const setOf = (event: DeliveryEvent, row: GithubDelivery, data: DeliveryEventData = DATA) =>
    DELIVERY_TRANSITIONS.find((rule) => rule.event === event)!.set(row, data)

  it('an invitation sent leaves the queue; sent again, it counts the resend and keeps the attempts', () => {
    expect(setOf('invitation_sent', delivery('queued', { waitingOn: 'rate_limit' }))).toEqual({
      buyerLogin: 'octobuyer',
      invitationId: 42,
      invitationUrl: DATA.invitation!.html_url,
      lastError: null,
      buyerGithubId: 9001,
      invitedAt: NOW,
      attempts: 3,
      waitingOn: null,
      nextAttemptAt: null,
    })
    expect(setOf('invitation_resent', delivery('invited', { resendCount: 0 }))).toEqual({
      buyerLogin: 'octobuyer',
      invitationId: 42,
      invitationUrl: DATA.invitation!.html_url,
      lastError: null,
      resendCount: 1,
      resentAt: NOW,
    })
  })

  it('a wait records what the invitation waits on and until when; a failed attempt keeps the last error unless it brings one', () => {
    expect(setOf('invitation_waiting', delivery('queued'))).toEqual({
      attempts: 3,
      waitingOn: 'invitation_limit',
      nextAttemptAt: DATA.retryAt,
      lastError: 'GitHub refused the invitation',
    })
    expect(setOf('attempt_failed', delivery('queued'), { now: NOW, attempts: 3 })).toEqual({
      attempts: 3,
      lastError: 'GitHub answered 502',
    })
    expect(setOf('attempt_failed', delivery('queued'), { now: NOW, attempts: 3, error: 'Not Found' })).toEqual({
      attempts: 3,
      lastError: 'Not Found',
    })
  })

  it('the buyer connecting their GitHub account sends a delivery waiting on it now; one waiting on anything else keeps its wait', () => {
    expect(decideDelivery(delivery('queued', { waitingOn: 'buyer_github' }), 'buyer_connected', DATA)).toMatchObject({
      ok: true,
      to: 'queued',
    })
    expect(setOf('buyer_connected', delivery('queued', { waitingOn: 'buyer_github' }))).toEqual({ nextAttemptAt: NOW })
    for (const waitingOn of [null, 'rate_limit', 'invitation_limit'] as const)
      expect(decideDelivery(delivery('queued', { waitingOn }), 'buyer_connected', DATA), `${waitingOn}`).toEqual({ ok: false })
  })

  it('access confirmed records the proof: the buyer, the times and the delivered commit', () => {
    expect(setOf('access_confirmed', delivery('invited'))).toEqual({
      buyerGithubId: 9001,
      buyerLogin: 'octobuyer',
      invitedAt: INVITED_AT,
      acceptedAt: NOW,
      deliveredSha: 'abc123',
      deliveredShaDate: INVITED_AT,
      attempts: 3,
      waitingOn: null,
      nextAttemptAt: null,
      lastError: null,
    })
  })
})
