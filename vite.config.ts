import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

const ROOT_ROUTE = path.resolve(import.meta.dirname, 'app/root.tsx')
// Our own modules and small libraries. Not the framework (it has its own chunks, as in the floor app) and not
// barrel packages like radix-ui and lucide-react, whose every re-export would otherwise count as imported by the
// shell: with lucide-react here, every icon used anywhere in the app (66, ~5 KB gzipped) was in the shell of
// every page. The packages the shell's modules do import (the root's icons, Radix's Slot) join the shell as its
// dependencies all the same; the other icons go with the pages that use them.
const SHELL_CANDIDATE = /^(?![^?]*node_modules)|node_modules\/(clsx|class-variance-authority|remix-themes)\//

/**
 * Everything the root route imports, statically, is on every page: it goes in
 * one "shell" chunk instead of a dozen small shared ones (icons, primitives),
 * each of which cost a request on a first visit (docs/decisions/008-public-page-weight.md).
 */
function shellChunk() {
  const memo = new Map<string, boolean>()
  function inShell(id: string, getInfo: (id: string) => { importers: string[] } | null): boolean {
    const known = memo.get(id)
    if (known !== undefined) return known
    memo.set(id, false) // import cycles
    const result = id.split('?')[0] === ROOT_ROUTE || (getInfo(id)?.importers ?? []).some((importer) => inShell(importer, getInfo))
    memo.set(id, result)
    return result
  }
  return {
    groups: [
      {
        debugName: 'shell',
        name: (id: string, ctx: { getModuleInfo: (id: string) => { importers: string[] } | null }) =>
          SHELL_CANDIDATE.test(id) && inShell(id, (m) => ctx.getModuleInfo(m)) ? 'shell' : null,
      },
    ],
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  // `npm run dev` watches the sources only: not databases, builds and test output (each helper's own copies).
  server: {
    watch: { ignored: ['**/.data*/**', '**/build/**', '**/build-*/**', '**/test-results*/**', '**/playwright-report/**', '**/bench/**'] },
  },
  // lucide-react's ~1,700 icons are 51 MB on disk; bundled, the server build holds the ~70 it uses, so the
  // package is needed at build time only (a devDependency) and the production image does not carry it.
  ssr: { noExternal: ['lucide-react'] },
  build: {
    target: 'es2022',
    rolldownOptions: {
      // Rolldown's plugin-time report prints on every build here (the framework's and Tailwind's plugins are
      // JavaScript); it is about the bundler's plugins, not our code, and buried the real warnings (issue 26.17).
      checks: { bundlerTimings: false },
      ...(isSsrBuild ? {} : { output: { codeSplitting: shellChunk() } }),
    },
  },
}))
