/**
 * Writes `.env.example` and the README's table of variables from the
 * configuration schema's documentation (ENV_DOCS in app/server/infra/env.server.ts).
 *
 *   npm run gen:env-docs
 *
 * app/server/infra/env.server.test.ts fails when either file differs from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ENV_DOCS, type EnvDoc, type EnvName } from '../../app/server/infra/env.server.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
export const ENV_EXAMPLE_FILE = path.join(ROOT, '.env.example')
export const README_FILE = path.join(ROOT, 'README.md')
const BEGIN = '<!-- env-table:begin (npm run gen:env-docs) -->'
const END = '<!-- env-table:end -->'

const entries = Object.entries(ENV_DOCS) as Array<[EnvName, EnvDoc]>
const plain = (markdown: string) => markdown.replaceAll('`', '')

export function renderEnvExample(): string {
  const lines = [
    '# Forkmarket configuration (generated from app/server/infra/env.server.ts: npm run gen:env-docs).',
    '# Every variable is optional for local use: with none set, `npm start` runs an embedded',
    '# PostgreSQL and the Supabase/Stripe emulators with data under DATA_DIR. In production',
    '# (NODE_ENV=production) the emulators never start and the variables marked "required in',
    '# production" must be set; the app refuses to start, naming each one, when they are not.',
  ]
  let group = ''
  for (const [name, doc] of entries) {
    if (doc.group !== group) {
      group = doc.group
      lines.push('', `# --- ${group} ${'-'.repeat(Math.max(3, 72 - group.length))}`)
    }
    const value = doc.example ?? (/^`[^`]*`$/.test(doc.default) ? plain(doc.default) : '')
    lines.push(`# ${`${name}=${value}`.padEnd(32)} # ${plain(doc.meaning)} (default: ${plain(doc.default)})`)
  }
  return `${lines.join('\n')}\n`
}

export function renderEnvTable(): string {
  const rows = entries.map(([name, doc]) => `| \`${name}\` | ${doc.default} | ${doc.meaning} |`)
  return [BEGIN, '| variable | default | meaning |', '|---|---|---|', ...rows, END].join('\n')
}

/** The README with its table replaced by the generated one. */
export function readmeWithEnvTable(readme: string): string {
  const start = readme.indexOf(BEGIN)
  const end = readme.indexOf(END)
  if (start < 0 || end < start) throw new Error(`README.md has no ${BEGIN} … ${END} section`)
  return readme.slice(0, start) + renderEnvTable() + readme.slice(end + END.length)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(ENV_EXAMPLE_FILE, renderEnvExample())
  writeFileSync(README_FILE, readmeWithEnvTable(readFileSync(README_FILE, 'utf8')))
  console.log('wrote .env.example and the README table of variables')
}
