import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { quietAwsSdkNodeNotice } from './app/server/infra/env.server.ts'

// The workers inherit it: no AWS SDK notice about Node 20 from each test file (the app says it once, server.ts).
quietAwsSdkNodeNotice()

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // One worker per core, at least two. Vitest's default is one fewer than the cores: a single worker on
    // CI's 2 cores, which left them ~40 % idle while tests wait on PostgreSQL, the emulators and timers
    // (the suite: 706 s with one worker, 490 s with two, measured here 2026-11-27, each worker its own database).
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['app/**/*.test.{ts,tsx}', 'emulators/**/*.test.ts', 'db/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          // A worker imports the app once and runs its files one after another, instead of importing it
          // again for each file (a quarter of the project's time was imports). Each file still gets its own
          // emulators and its environment put back (tests/setup/worker-setup.ts, tests/support/services.ts),
          // and every test an emptied database.
          isolate: false,
          environment: 'node',
          globalSetup: ['tests/setup/global-setup.ts'],
          setupFiles: ['tests/setup/worker-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
