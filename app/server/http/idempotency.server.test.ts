import type { AddressInfo } from 'node:net'
import { createRequestHandler } from '@react-router/express'
import express from 'express'
import type { ServerBuild } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isAppError } from '../domain/errors.server.ts'
import { idempotentCreate, keepEmptyIdempotencyKey } from './idempotency.server.ts'

/*
 * Issue 26.5: React Router's Express adapter drops every header whose value is
 * empty, so `Idempotency-Key:` (empty) reached the app as no key at all and the
 * create went ahead unprotected. Through the real adapter, an empty key is a 400.
 */

// The smallest build the adapter serves: one resource route that reads the key as the create routes do.
const build = {
  entry: { module: { default: () => new Response('no documents', { status: 500 }) } },
  routes: {
    root: { id: 'root', path: '', module: {} },
    create: {
      id: 'create',
      parentId: 'root',
      path: 'api/create',
      module: {
        action: ({ request }: { request: Request }) => {
          try {
            return Response.json({ key: idempotentCreate(request, {})?.key ?? null })
          } catch (error) {
            if (!isAppError(error)) throw error
            return Response.json({ error: error.message }, { status: error.status })
          }
        },
      },
    },
  },
  assets: { entry: { module: '', imports: [] }, routes: {}, url: '', version: '1' },
  publicPath: '/',
  assetsBuildDirectory: '',
  future: {},
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: 'initial' },
  basename: '/',
} as unknown as ServerBuild

let url = ''
let close: () => void = () => {}
beforeAll(async () => {
  const app = express()
  app.use(keepEmptyIdempotencyKey)
  app.use(createRequestHandler({ build, mode: 'production' }))
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/create`
  close = () => server.close()
})
afterAll(() => close())

const post = (headers: Record<string, string>) => fetch(url, { method: 'POST', headers })

describe('Idempotency-Key through the Express adapter', () => {
  it('an empty key is malformed (400), not the same as none', async () => {
    for (const empty of ['', ' ']) {
      const response = await post({ 'Idempotency-Key': empty })
      expect(response.status, JSON.stringify(empty)).toBe(400)
      expect(await response.json()).toEqual({ error: 'Idempotency-Key must be 1 to 255 visible ASCII characters' })
    }
  })

  it('no key is none, a key is read as sent', async () => {
    expect(await (await post({})).json()).toEqual({ key: null })
    expect(await (await post({ 'Idempotency-Key': 'k-1' })).json()).toEqual({ key: 'k-1' })
    expect(await (await post({ 'Idempotency-Key': '"k-2"' })).json()).toEqual({ key: 'k-2' })
  })
})
