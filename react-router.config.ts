import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // BUILD_DIR lets parallel checkouts/benchmarks build side by side; server.ts reads the same variable.
  buildDirectory: process.env.BUILD_DIR ?? 'build',
  // Root middleware resolves the signed-in user once per request and forwards
  // the auth cookies of a silent refresh on every response.
  future: { v8_middleware: true },
} satisfies Config
