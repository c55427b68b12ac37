import type { Config } from '@react-router/dev/config'

// Floor E of the benchmark: the framework with the same configuration as the
// app (SSR, middleware flag) and nothing else. bench/run.ts builds it into
// FLOOR_BUILD_DIR with the project's own react-router and vite.
export default {
  ssr: true,
  buildDirectory: process.env.FLOOR_BUILD_DIR ?? 'build',
  future: { v8_middleware: true },
} satisfies Config
