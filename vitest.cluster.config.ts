import { defineConfig } from 'vitest/config'

// The cluster tests (issue 20), `npm run test:cluster` (in `npm test`, after the e2e suite has built the
// app): they start app instances from the production build behind nginx, or wait for a real cron tick.
// They share the integration suite's database setup (one embedded PostgreSQL, a database per worker).
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['tests/cluster/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/setup/global-setup.ts'],
    setupFiles: ['tests/setup/worker-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
})
