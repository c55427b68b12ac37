/**
 * compose-check.sh: deploy/nginx.conf (docker-compose.yml's nginx) is the reference deployment's
 * configuration (scripts/cluster/nginx.ts) for containers. Every directive the generated one has must be
 * in it, word for word, but for what is the container's own: where files go, the listen address, the
 * upstream servers (the compose service `app`) and the retry count (each replica once, whatever the scale).
 *
 *   tsx scripts/container/nginx-conf-check.ts
 */
import { readFileSync } from 'node:fs'
import { loadConfig } from '../../app/server/infra/env.server.ts'
import { maxBodyBytes, nginxConfig } from '../cluster/nginx.ts'

// The body limits' module reaches the database module, which reads the configuration (no connection is made).
loadConfig({
  NODE_ENV: 'test',
  DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
  SESSION_SECRET: 'x'.repeat(32),
  BANK_DETAILS_KEY: 'x'.repeat(43),
})
const generated = nginxConfig({
  dir: '/generated',
  host: '127.0.0.1',
  port: 3000,
  upstreams: [3001, 3002],
  maxBodyBytes: await maxBodyBytes(),
})
const own =
  /^(daemon|master_process|worker_processes|pid|error_log|access_log|listen|server 127\.0\.0\.1|proxy_next_upstream_tries|\w+_temp_path)\b/
const directives = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#') && line !== '}' && !line.endsWith('{'))
    .map((line) => line.replace(/proxy_cache_path \S+/, 'proxy_cache_path PATH'))
const deployed = new Set(directives(readFileSync(new URL('../../deploy/nginx.conf', import.meta.url), 'utf8')))
const missing = directives(generated).filter((line) => !own.test(line) && !deployed.has(line))
if (missing.length) {
  console.error(`[nginx-conf] deploy/nginx.conf lacks what scripts/cluster/nginx.ts generates:\n  ${missing.join('\n  ')}`)
  process.exit(1)
}
console.log(
  `[nginx-conf] deploy/nginx.conf has the generated configuration's ${directives(generated).filter((l) => !own.test(l)).length} directives`,
)
