/** Helpers shared by the Stripe emulator's tests: the real `stripe` client pointed at an emulator, a throwaway webhook endpoint. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import type { StripeEmulator, StripeEvent } from './server.ts'

export function sdkFor(emulator: StripeEmulator, config: Stripe.StripeConfig = {}): Stripe {
  return new Stripe(emulator.secretKey, { host: emulator.host, port: emulator.port, protocol: 'http', ...config })
}

/** Resolves to the error a promise rejects with, failing the test if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise
  } catch (error) {
    return error as Stripe.errors.StripeError
  }
  throw new Error('expected the call to fail')
}

export interface Received {
  raw: string
  headers: IncomingHttpHeaders
}

/** A throwaway webhook endpoint; `respond` decides each answer's status. */
export async function startReceiver(respond: (delivery: Received) => number | Promise<number> = () => 200) {
  const received: Received[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const delivery = { raw: Buffer.concat(chunks).toString('utf8'), headers: req.headers }
    received.push(delivery)
    res.writeHead(await respond(delivery)).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/api/stripe/webhook`,
    received,
    eventsOf: (type: string) => received.map((d) => JSON.parse(d.raw) as StripeEvent).filter((event) => event.type === type),
    close: () => closeServer(server),
  }
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}
