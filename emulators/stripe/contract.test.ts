/**
 * The Stripe emulator held to Stripe's published OpenAPI description (openapi-subset.json, made by
 * extract-openapi.ts): driven through the real `stripe` client across every operation it
 * implements, each response it gave is validated with ajv against the operation's schema (an error
 * against Stripe's `error` schema), each webhook event against `event` and its `data.object`
 * against the object's schema; and an expandable field (`x-expansionResources`) is an id or null
 * unless the request expanded it (webhook payloads are never expanded).
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import Ajv, { type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { forAjv, missingPinnedFields, undeclaredFields, unexpandedProblems, type JsonSchema } from './contract-schema.ts'
import { OPERATIONS, startStripeEmulator, WEBHOOK_EVENTS, type StripeEmulator, type StripeEvent } from './server.ts'

interface Subset {
  source: { apiVersion: string; pinnedApiVersion: string }
  operations: Record<string, { method: string; path: string; responses: Record<string, { schema: JsonSchema }> }>
  events: Record<string, { object: string; schema: JsonSchema }>
  components: { schemas: Record<string, JsonSchema> }
}

const subset = JSON.parse(readFileSync(new URL('./openapi-subset.json', import.meta.url), 'utf8')) as Subset
const WEBHOOK_SECRET = 'whsec_contract_test'

let emulator: StripeEmulator
let stripe: Stripe
let receiver: Server
const received: StripeEvent[] = []

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as StripeEvent)
    res.writeHead(200).end()
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/stripe/webhook`
  emulator = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, webhookUrl })
  stripe = new Stripe(emulator.secretKey, { host: emulator.host, port: emulator.port, protocol: 'http', maxNetworkRetries: 0 })
})

afterAll(async () => {
  await emulator.close()
  receiver.closeAllConnections()
  await new Promise((resolve) => receiver.close(resolve))
})

async function failure(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise
  } catch (error) {
    return error as Stripe.errors.StripeError
  }
  throw new Error('expected the call to fail')
}

function challenge(intent: Stripe.PaymentIntent, outcome: 'complete' | 'fail') {
  return fetch(`${emulator.url}/_emulator/3ds/${intent.id}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_secret: intent.client_secret!, outcome }),
  })
}

describe('Stripe emulator contract: the operations the app uses, through the stripe client', () => {
  it('pays, declines, asks for 3-D Secure, cancels, refunds and lists', async () => {
    const create = (params: Partial<Stripe.PaymentIntentCreateParams> = {}) =>
      stripe.paymentIntents.create({ amount: 2500, currency: 'usd', metadata: { orderId: 'ord_contract' }, ...params })

    // Paid: create (automatic payment methods), update, confirm, retrieve plain and expanded.
    const paid = await create({ automatic_payment_methods: { enabled: true }, description: 'Contract order' })
    await stripe.paymentIntents.update(paid.id, { amount: 2600, metadata: { step: 'updated' } })
    await stripe.paymentIntents.confirm(paid.id, { payment_method: 'pm_card_visa', return_url: 'http://localhost:3000/done' })
    const paidNow = await stripe.paymentIntents.retrieve(paid.id)
    await stripe.paymentIntents.retrieve(paid.id, { expand: ['latest_charge', 'payment_method'] })
    await stripe.paymentMethods.retrieve(paidNow.payment_method as string)

    // Created and confirmed in one call; then declined, and a card that needs authentication.
    await create({ confirm: true, payment_method: 'pm_card_mastercard', allowed_payment_method_types: ['card'] })
    const declined = await create()
    expect((await failure(stripe.paymentIntents.confirm(declined.id, { payment_method: 'pm_card_chargeDeclined' }))).statusCode).toBe(402)
    const insufficient = await create({ payment_method: 'pm_card_chargeDeclinedInsufficientFunds' })
    expect((await failure(stripe.paymentIntents.confirm(insufficient.id))).statusCode).toBe(402)
    await stripe.paymentIntents.retrieve(declined.id)
    await stripe.paymentIntents.retrieve(declined.id, { expand: ['latest_charge'] })

    const authenticated = await create()
    expect((await stripe.paymentIntents.confirm(authenticated.id, { payment_method: 'pm_card_authenticationRequired' })).status).toBe(
      'requires_action',
    )
    await stripe.paymentIntents.retrieve(authenticated.id)
    expect((await challenge(authenticated, 'complete')).status).toBe(200)
    const abandoned = await create()
    await stripe.paymentIntents.confirm(abandoned.id, { payment_method: 'pm_card_authenticationRequiredOnSetup' })
    expect((await challenge(abandoned, 'fail')).status).toBe(200)
    await stripe.paymentIntents.retrieve(abandoned.id)

    // Canceled, and what the API refuses.
    const canceled = await create()
    await stripe.paymentIntents.cancel(canceled.id, { cancellation_reason: 'abandoned' })
    expect((await failure(stripe.paymentIntents.cancel(canceled.id))).statusCode).toBe(400)
    expect((await failure(stripe.paymentIntents.confirm(paid.id, { payment_method: 'pm_card_visa' }))).statusCode).toBe(400)
    expect((await failure(stripe.paymentIntents.update(paid.id, { amount: 1 }))).statusCode).toBe(400)
    expect((await failure(stripe.paymentIntents.retrieve('pi_missing'))).statusCode).toBe(404)
    expect((await failure(create({ amount: 0 }))).statusCode).toBe(400)

    // Refunds: part by intent, the rest by charge, too much, listed and retrieved.
    const charge = paidNow.latest_charge as string
    const part = await stripe.refunds.create({ payment_intent: paid.id, amount: 600, reason: 'requested_by_customer' })
    await stripe.refunds.create({ charge, metadata: { why: 'rest' } })
    expect((await failure(stripe.refunds.create({ charge, amount: 1 }))).statusCode).toBe(400)
    expect((await failure(stripe.refunds.create({ payment_intent: declined.id }))).statusCode).toBe(400)
    await stripe.refunds.retrieve(part.id)
    await stripe.refunds.retrieve(part.id, { expand: ['charge', 'payment_intent'] })
    await stripe.refunds.list({ payment_intent: paid.id, limit: 1 })
    await stripe.refunds.list({ charge })
    expect((await failure(stripe.refunds.retrieve('re_missing'))).statusCode).toBe(404)

    // Charges: retrieved plain and with its refunds, listed (all pages).
    await stripe.charges.retrieve(charge)
    await stripe.charges.retrieve(charge, { expand: ['refunds', 'payment_intent'] })
    for await (const listed of stripe.charges.list({ limit: 2 })) expect(listed.object).toBe('charge')
    await stripe.charges.list({ payment_intent: paid.id, expand: ['data.refunds'] })
    expect((await failure(stripe.charges.retrieve('ch_missing'))).statusCode).toBe(404)

    // Events, as the app's reconciliation fetches one.
    await emulator.idle()
    await stripe.events.retrieve(emulator.events[0]!.id)
    await stripe.events.retrieve(emulator.events.at(-1)!.id)
    expect((await failure(stripe.events.retrieve('evt_missing'))).statusCode).toBe(404)

    // With a publishable key, as Stripe.js calls: a server-only call is refused.
    const browser = new Stripe(emulator.publishableKey, { host: emulator.host, port: emulator.port, protocol: 'http' })
    expect((await failure(browser.refunds.create({ charge }))).statusCode).toBe(401)
  })
})

describe(`Stripe emulator contract (openapi-subset.json: description ${subset.source.apiVersion}, stripe pins ${subset.source.pinnedApiVersion})`, () => {
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addFormat('unix-time', { type: 'number', validate: (value: number) => Number.isInteger(value) && value >= 0 })
  ajv.addFormat('decimal', /^-?\d+(\.\d+)?$/)
  ajv.addSchema({ $id: 'stripe', ...(forAjv(subset) as object) })
  const validators = new Map<string, ValidateFunction>()
  const validator = (pointer: string) => {
    let compiled = validators.get(pointer)
    if (!compiled) validators.set(pointer, (compiled = ajv.compile({ $ref: `stripe#${pointer}` })))
    return compiled
  }
  const errorsOf = (validate: ValidateFunction) => ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 800)
  // Compiling Stripe's schemas takes seconds on these machines: once, before the checks.
  beforeAll(() => {
    for (const operationId of Object.keys(subset.operations)) {
      validator(`/operations/${operationId}/responses/200/schema`)
      validator(`/operations/${operationId}/responses/default/schema`)
    }
    for (const type of Object.keys(subset.events)) validator(`/events/${type}/schema`)
    validator('/components/schemas/event')
  }, 120_000)

  it('lists exactly the operations and events the emulator implements', () => {
    expect(Object.keys(subset.operations).sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort())
    expect(Object.keys(subset.events).sort()).toEqual(Object.keys(WEBHOOK_EVENTS).sort())
  })

  it('validates every response against its operation schema (errors against Stripe’s error schema)', () => {
    const problems: string[] = []
    for (const exchange of emulator.exchanges) {
      const status = exchange.status < 300 ? '200' : 'default'
      const validate = validator(`/operations/${exchange.operationId}/responses/${status}/schema`)
      if (!validate(exchange.body)) problems.push(`${exchange.method} ${exchange.path} → ${exchange.status}: ${errorsOf(validate)}`)
    }
    expect(problems).toEqual([])
    const succeeded = new Set(emulator.exchanges.filter((exchange) => exchange.status < 300).map((exchange) => exchange.operationId))
    expect(OPERATIONS.map((op) => op.operationId).filter((id) => !succeeded.has(id))).toEqual([])
    const statuses = new Set(emulator.exchanges.map((exchange) => exchange.status))
    expect([400, 401, 402, 404].filter((status) => !statuses.has(status))).toEqual([])
  })

  it('leaves every expandable field an id (or null) unless the request expanded it', () => {
    const problems: string[] = []
    let expandedSeen = 0
    for (const exchange of emulator.exchanges) {
      if (exchange.status >= 300) continue
      const root = subset.operations[exchange.operationId]!.responses['200']!.schema
      const found = unexpandedProblems(subset.components.schemas, root, exchange.body, exchange.expand)
      problems.push(...found.problems.map((problem) => `${exchange.method} ${exchange.path}: ${problem}`))
      expandedSeen += found.expanded
    }
    expect(problems).toEqual([])
    // The check saw the expanded objects too (an expand[] that did nothing would pass unnoticed otherwise).
    expect(expandedSeen).toBeGreaterThanOrEqual(6)
  })

  it('sends the fields of the pinned API version: none that both the description and the pinned client lack, all that are always present', () => {
    // The description (2024-04-10) predates the pinned version: a field it lacks must be one the
    // `stripe` package's types (made from the pinned version's description) declare.
    const resources = join(dirname(createRequire(import.meta.url).resolve('stripe')), 'resources')
    const sent: Array<{ where: string; schema: JsonSchema; value: unknown }> = [
      ...emulator.exchanges.map((exchange) => ({
        where: `${exchange.method} ${exchange.path} → ${exchange.status}`,
        schema: subset.operations[exchange.operationId]!.responses[exchange.status < 300 ? '200' : 'default']!.schema,
        value: exchange.body,
      })),
      ...received.map((event) => ({ where: event.type, schema: subset.events[event.type]!.schema, value: event.data.object })),
    ]
    const problems = new Set<string>()
    for (const { where, schema, value } of sent) {
      for (const field of undeclaredFields(subset.components.schemas, schema, value, resources))
        problems.add(`${field} (${where}) is in neither`)
      for (const missing of missingPinnedFields(value, resources)) problems.add(`${missing} (${where}) is missing`)
    }
    expect([...problems]).toEqual([])
  })

  it('validates every webhook event and its data.object; none is expanded', () => {
    expect(received.length).toBe(emulator.events.length)
    const problems: string[] = []
    const envelope = validator('/components/schemas/event')
    for (const event of received) {
      if (!envelope(event as unknown)) problems.push(`${event.type} envelope: ${errorsOf(envelope)}`)
      const declared = subset.events[event.type] as Subset['events'][string] | undefined
      if (!declared) {
        problems.push(`${event.type}: not an event type of operations.ts`)
        continue
      }
      const object = event.data.object as { object?: string }
      if (object.object !== declared.object) problems.push(`${event.type} carries a ${object.object}, not a ${declared.object}`)
      const validate = validator(`/events/${event.type}/schema`)
      if (!validate(object)) problems.push(`${event.type} data.object: ${errorsOf(validate)}`)
      const unexpanded = unexpandedProblems(subset.components.schemas, declared.schema, object, [])
      problems.push(...unexpanded.problems.map((problem) => `${event.type} data.object: ${problem}`))
    }
    expect(problems).toEqual([])
    const sent = new Set(received.map((event) => event.type))
    expect(Object.keys(WEBHOOK_EVENTS).filter((type) => !sent.has(type))).toEqual([])
  })
})
