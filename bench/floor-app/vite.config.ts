import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

// Same build target as the app's vite.config.ts; no Tailwind, no path aliases: the floor has no styles or code of its own.
export default defineConfig({
  plugins: [reactRouter()],
  build: { target: 'es2022' },
})
