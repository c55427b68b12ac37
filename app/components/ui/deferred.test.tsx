import { PassThrough } from 'node:stream'
import { renderToPipeableStream, renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { deferred } from './deferred'

function Greeting({ name }: { name: string }) {
  return (
    <form method="post">
      <label htmlFor="g">Hello {name}</label>
      <input id="g" name="g" />
      {/* Over 500 bytes: React would outline such a boundary's content once the page is past 12.8 KB. */}
      <p>{'A plain form that works without JavaScript. '.repeat(20)}</p>
    </form>
  )
}

/** A page long enough for React to stream ready Suspense content after the shell (progressiveChunkSize). */
function LongPage({ children }: { children: React.ReactNode }) {
  return (
    <main>
      <p>{'x'.repeat(20_000)}</p>
      {children}
    </main>
  )
}

/** The first bytes React sends with onShellReady (what a browser, or a visitor without JavaScript, gets first). */
function shell(element: React.ReactElement): Promise<string> {
  return new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(element, {
      onShellReady() {
        let html = ''
        const body = new PassThrough()
        body.on('data', (chunk: Buffer) => (html += chunk.toString()))
        pipe(body)
        setImmediate(() => resolve(html))
      },
      onShellError: reject,
    })
  })
}

describe('deferred', () => {
  it('loads the module on the server before any render, so the markup is in the HTML, not a fallback', async () => {
    let loads = 0
    const parts = deferred(async () => {
      loads += 1
      return { Greeting }
    })
    const Deferred = parts.component('Greeting')
    await parts.preload()
    expect(loads).toBe(1)
    expect(renderToString(<Deferred name="Ada" />)).toContain('Hello <!-- -->Ada')
    // In place in the shell, far down a long page: not a fallback with the content streamed after it
    // (hidden until a script moves it), which a visitor without JavaScript would never see.
    const html = await shell(
      <LongPage>
        <Deferred name="Lin" />
      </LongPage>,
    )
    expect(html).toMatch(/<form method="post"><label for="g">Hello <!-- -->Lin<\/label>/)
    expect(html).not.toMatch(/<!--\$\?-->|hidden id="S:|<template/)
    expect(loads).toBe(1)
  })

  it('loads each module once, and only when asked or rendered', async () => {
    let loads = 0
    const parts = deferred(async () => {
      loads += 1
      return { Greeting }
    })
    // On the server (no window) the load starts at once.
    expect(loads).toBe(typeof window === 'undefined' ? 1 : 0)
    await Promise.all([parts.preload(), parts.preload()])
    expect(loads).toBe(1)
  })
})
