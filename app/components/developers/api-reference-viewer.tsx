import { useEffect, useRef, useState } from 'react'
// Redoc's self-contained browser bundle, copied into our build's assets by Vite (served by us, no CDN; decision 035).
import redocBundle from 'redoc/bundles/redoc.standalone.js?url'

interface RedocGlobal {
  init: (specUrl: string, options: Record<string, unknown>, element: HTMLElement, callback?: (error?: unknown) => void) => void
}

declare global {
  interface Window {
    Redoc?: RedocGlobal
  }
}

let loading: Promise<RedocGlobal> | undefined

/** Loads the bundle once per page, as a script from our own origin (the CSP's script-src 'self'). */
function loadRedoc(): Promise<RedocGlobal> {
  loading ??= new Promise<RedocGlobal>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = redocBundle
    script.async = true
    script.onload = () => (window.Redoc ? resolve(window.Redoc) : reject(new Error('Redoc did not load')))
    script.onerror = () => reject(new Error('Redoc did not load'))
    document.head.append(script)
  }).catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

/**
 * Redoc's view of /api/openapi.json, drawn in the browser once the page has
 * loaded: every parameter, schema, answer and webhook payload. Without
 * JavaScript the page's server-rendered lists stand (this section says so).
 * Search is off: Redoc's search runs in a Worker made from a blob: URL, which
 * the CSP does not allow; the lists above and the browser's find serve instead.
 */
export function ApiReferenceViewer({ specUrl }: { specUrl: string }) {
  const container = useRef<HTMLDivElement>(null)
  const [state, setState] = useState<'waiting' | 'loading' | 'ready' | 'failed'>('waiting')

  useEffect(() => {
    let cancelled = false
    setState('loading')
    loadRedoc()
      .then((redoc) => {
        if (cancelled || !container.current) return
        redoc.init(
          specUrl,
          {
            disableSearch: true,
            hideDownloadButton: false,
            expandResponses: '200,201',
            jsonSampleExpandLevel: 2,
            theme: {
              colors: { primary: { main: '#4338ca' } },
              typography: { fontFamily: 'inherit', headings: { fontFamily: 'inherit' }, code: { fontFamily: 'ui-monospace, monospace' } },
              sidebar: { width: '260px' },
            },
          },
          container.current,
          (error) => !cancelled && setState(error ? 'failed' : 'ready'),
        )
      })
      .catch(() => !cancelled && setState('failed'))
    return () => {
      cancelled = true
    }
  }, [specUrl])

  return (
    <div>
      {state === 'waiting' && (
        <p className="text-muted-foreground">
          The interactive reference needs JavaScript; the lists above describe every endpoint and event.
        </p>
      )}
      {state === 'loading' && (
        <p role="status" className="text-muted-foreground">
          Loading the interactive reference…
        </p>
      )}
      {state === 'failed' && (
        <p role="alert" className="text-destructive">
          The interactive reference could not load; the lists above and /api/openapi.json describe every endpoint and event.
        </p>
      )}
      {/* Redoc draws in light colours: it keeps a light panel in both themes, so its own contrast holds. */}
      <div ref={container} data-testid="api-reference-viewer" className="mt-4 overflow-hidden rounded-lg border bg-white text-black" />
    </div>
  )
}
