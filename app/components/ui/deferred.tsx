import * as React from 'react'

type ComponentKeys<M> = { [K in keyof M]: M[K] extends React.ComponentType<never> ? K : never }[keyof M]
type PropsOf<C> = C extends React.ComponentType<infer P> ? P : never

/**
 * A module of components loaded on first use (docs/decisions/008-public-page-weight.md): what only
 * some visitors see (a signed-in buyer's review form, the seller's tools) stays out of the page's
 * first-visit JavaScript. `deferred(() => import('./x')).component('Name')` is a component that
 * renders `Name` from that module; its code is fetched when one is first rendered in the browser.
 *
 * Unlike `React.lazy` in a Suspense boundary, the server always puts the real markup in the page's
 * HTML, in place: it loads the module at startup, and the component renders synchronously once the
 * module is there. That HTML is what a visitor without JavaScript uses (a plain `<form method="post">`,
 * a link), so it must never be a fallback with the content streamed after it, which only JavaScript
 * reveals: React outlines a Suspense boundary's content that way even when it is ready, once the page
 * is past its first 12.8 KB. Hence no Suspense boundary of its own: in the browser, hydration waits
 * for the module (the page meanwhile works as the server sent it, forms post as they would without
 * JavaScript), then hydrates the markup where it is; and a client-side navigation to a page that shows
 * one (always a transition) completes once the module is loaded. Only pages that show one wait.
 */
export function deferred<M extends object>(load: () => Promise<M>) {
  let loaded: M | undefined
  let loading: Promise<M> | undefined
  const preload = (): Promise<M> => (loading ??= load().then((module) => (loaded = module)))
  if (typeof window === 'undefined') void preload()

  function component<K extends ComponentKeys<M>>(name: K) {
    type Props = PropsOf<M[K]>
    function Deferred(props: Props) {
      const Component = (loaded ?? React.use(preload()))[name] as React.ComponentType<Props>
      return <Component {...(props as React.JSX.IntrinsicAttributes & Props)} />
    }
    Deferred.displayName = `Deferred(${String(name)})`
    return Deferred
  }

  return { preload, component }
}
