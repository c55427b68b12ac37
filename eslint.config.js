import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'build/',
      'build-*/',
      'bench/.cache/',
      'test-results*/',
      '.data-e2e-*/',
      '.react-router/',
      'node_modules/',
      '.data*/',
      'test-results/',
      'playwright-report/',
      'bench/results/',
      'bench/floor-app/build/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-empty-pattern': 'off',
    },
  },
  {
    // Zod must be configured (jitless, for the CSP) before any schema parses: app code takes `z` from ~/lib/zod.
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/lib/zod.ts', 'app/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', allowTypeImports: true, message: "Import { z } from '~/lib/zod' (it sets jitless mode for the CSP)." }] },
      ],
    },
  },
)
