import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // BUILD_DIR lets parallel checkouts/benchmarks build side by side; server.ts reads the same variable.
  buildDirectory: process.env.BUILD_DIR ?? 'build',
  // v8_middleware: root middleware resolves the signed-in user once per request and forwards
  // the auth cookies of a silent refresh on every response.
  // The other v8 flags are decided, not left to warn on every build (issue 26.17): they stay off until the
  // move to React Router 8, which is measured against the performance budgets then (route-module splitting
  // changes the chunks of decision 008; request and data-URL handling, the cache rules of decision 023).
  future: {
    v8_middleware: true,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config
