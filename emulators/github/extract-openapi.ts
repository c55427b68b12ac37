/**
 * Regenerates `emulators/github/openapi-subset.json`: the response schemas of exactly the REST
 * operations and the webhook payloads the GitHub emulator implements (listed in `operations.ts`),
 * copied from GitHub's published OpenAPI description with every `$ref` they need.
 *
 *   npx tsx emulators/github/extract-openapi.ts                # npm-packs @octokit/openapi@OPENAPI_VERSION into a temp dir
 *   npx tsx emulators/github/extract-openapi.ts --from /tmp/package/generated/api.github.com.json  # an unpacked copy of that version
 *   npx tsx emulators/github/extract-openapi.ts --version 23.1.0   # another release of the description
 *
 * `@octokit/openapi` is ~400 MB unpacked, so it is never a dependency: the script packs it into a
 * temporary directory, reads `generated/api.github.com.json` (the non-dereferenced file: schemas
 * stay shared through `#/components/schemas/…`), and deletes the directory again.
 *
 * Output shape (what the contract test in server.test.ts reads):
 *   { source: { package, version, file, openapi, apiVersion },
 *     operations: { [operationId]: { method, path, responses: { [status]: { schema?: JSONSchema } } } },
 *     webhooks:   { [name]: { event, action?, schema: JSONSchema } },
 *     components: { schemas: { [name]: JSONSchema } } }           // only the ones referenced
 * Response-level `$ref`s (`#/components/responses/not_found`) are resolved in place; schema `$ref`s
 * keep pointing at `#/components/schemas/…`, which this file carries. `example(s)`, `description`
 * and `externalDocs` are dropped (they are documentation, not shape).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { OPERATIONS, WEBHOOKS } from './operations.ts'

export const OPENAPI_PACKAGE = '@octokit/openapi'
export const OPENAPI_VERSION = '23.0.2'
const DESCRIPTION_FILE = 'generated/api.github.com.json'
const OUTPUT = fileURLToPath(new URL('./openapi-subset.json', import.meta.url))
const DROPPED_KEYS = new Set(['example', 'examples', 'description', 'externalDocs'])

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

interface Description {
  openapi: string
  info: { version: string }
  paths: Record<string, Record<string, JsonObject>>
  'x-webhooks': Record<string, Record<string, JsonObject>>
  components: { schemas: Record<string, Json>; responses: Record<string, JsonObject> }
}

function main(): void {
  const args = process.argv.slice(2)
  const from = option(args, '--from')
  const version = option(args, '--version') ?? OPENAPI_VERSION
  let workDir: string | undefined
  let file = from
  if (!file) {
    workDir = mkdtempSync(join(tmpdir(), 'github-openapi-'))
    console.log(`npm pack ${OPENAPI_PACKAGE}@${version} (about 30 MB) into ${workDir}`)
    execFileSync('npm', ['pack', `${OPENAPI_PACKAGE}@${version}`, '--pack-destination', workDir, '--loglevel=error'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    const tarball = join(workDir, `octokit-openapi-${version}.tgz`)
    execFileSync('tar', ['-xzf', tarball, '-C', workDir, `package/${DESCRIPTION_FILE}`])
    file = join(workDir, 'package', DESCRIPTION_FILE)
  }
  try {
    const description = JSON.parse(readFileSync(file, 'utf8')) as Description
    const subset = extract(description, `${OPENAPI_PACKAGE}@${version}`)
    writeFileSync(OUTPUT, `${JSON.stringify(subset, null, 2)}\n`)
    const counts = `${Object.keys(subset.operations).length} operations, ${Object.keys(subset.webhooks).length} webhooks, ${Object.keys(subset.components.schemas).length} schemas`
    console.log(`wrote ${OUTPUT} (${counts})`)
  } finally {
    if (workDir) rmSync(workDir, { recursive: true, force: true })
  }
}

export function extract(description: Description, origin: string) {
  const operations: Record<string, { method: string; path: string; responses: Record<string, { schema?: Json }> }> = {}
  for (const op of OPERATIONS) {
    const found = description.paths[op.path]?.[op.method.toLowerCase()]
    if (!found) throw new Error(`${op.method} ${op.path} is not in the description`)
    if (found.operationId !== op.operationId) {
      throw new Error(`${op.method} ${op.path} is ${String(found.operationId)} in the description, not ${op.operationId}`)
    }
    const responses: Record<string, { schema?: Json }> = {}
    for (const [status, raw] of Object.entries(found.responses as JsonObject)) {
      const response = resolveResponse(description, raw as JsonObject)
      const content = response.content as JsonObject | undefined
      const schema = (content?.['application/json'] as JsonObject | undefined)?.schema
      responses[status] = schema === undefined ? {} : { schema: clean(schema) }
    }
    operations[op.operationId] = { method: op.method, path: op.path, responses }
  }

  const webhooks: Record<string, { event: string; action?: string; schema: Json }> = {}
  for (const hook of WEBHOOKS) {
    const post = description['x-webhooks'][hook.name]?.post
    const body = (post?.requestBody as JsonObject | undefined)?.content as JsonObject | undefined
    const schema = (body?.['application/json'] as JsonObject | undefined)?.schema
    if (schema === undefined) throw new Error(`webhook ${hook.name} has no JSON payload schema in the description`)
    webhooks[hook.name] = { event: hook.event, ...('action' in hook ? { action: hook.action } : {}), schema: clean(schema) }
  }

  const schemas: Record<string, Json> = {}
  const pending = [...collectRefs({ operations, webhooks } as unknown as Json)]
  while (pending.length > 0) {
    const name = pending.pop()!
    if (name in schemas) continue
    const schema = description.components.schemas[name]
    if (schema === undefined) throw new Error(`#/components/schemas/${name} is missing from the description`)
    schemas[name] = clean(schema)
    pending.push(...collectRefs(schemas[name]))
  }

  return {
    source: {
      package: origin,
      file: DESCRIPTION_FILE,
      openapi: description.openapi,
      apiVersion: description.info.version,
      regenerate: 'npx tsx emulators/github/extract-openapi.ts',
    },
    operations,
    webhooks,
    components: { schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) },
  }
}

function resolveResponse(description: Description, response: JsonObject): JsonObject {
  const ref = response.$ref
  if (typeof ref !== 'string') return response
  const name = /^#\/components\/responses\/(.+)$/.exec(ref)?.[1]
  const target = name ? description.components.responses[name] : undefined
  if (!target) throw new Error(`cannot resolve ${ref}`)
  return resolveResponse(description, target)
}

function clean(value: Json): Json {
  if (Array.isArray(value)) return value.map(clean)
  if (value === null || typeof value !== 'object') return value
  const out: JsonObject = {}
  for (const [key, child] of Object.entries(value)) {
    // Under `properties` the keys are property names (one may be called "description"): kept.
    if (DROPPED_KEYS.has(key)) continue
    out[key] = key === 'properties' ? mapValues(child as JsonObject, clean) : clean(child)
  }
  return out
}

function mapValues(object: JsonObject, fn: (value: Json) => Json): JsonObject {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, fn(value)]))
}

function collectRefs(value: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, found)
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') {
        const name = /^#\/components\/schemas\/(.+)$/.exec(child)?.[1]
        if (!name) throw new Error(`unexpected $ref ${child}`)
        found.add(name)
      } else {
        collectRefs(child, found)
      }
    }
  }
  return found
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name)
  return index >= 0 ? args[index + 1] : undefined
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main()
