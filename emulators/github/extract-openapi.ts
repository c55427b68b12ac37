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
import { fileURLToPath } from 'node:url'
import {
  findOperation,
  isScript,
  jsonSchemaOf,
  option,
  readJson,
  resolveResponse,
  schemaClosure,
  schemaRefs,
  withoutKeys,
  withPackedFile,
  writeSubset,
  type Json,
  type JsonObject,
  type OpenApiDescription,
} from '../support/openapi-subset.ts'
import { OPERATIONS, WEBHOOKS } from './operations.ts'

const OPENAPI_PACKAGE = '@octokit/openapi'
const OPENAPI_VERSION = '23.0.2'
const DESCRIPTION_FILE = 'generated/api.github.com.json'
const OUTPUT = fileURLToPath(new URL('./openapi-subset.json', import.meta.url))
const DROPPED_KEYS = new Set(['example', 'examples', 'description', 'externalDocs'])

interface Description extends OpenApiDescription {
  'x-webhooks': Record<string, Record<string, JsonObject>>
}

function main(): void {
  const args = process.argv.slice(2)
  const from = option(args, '--from')
  const version = option(args, '--version') ?? OPENAPI_VERSION
  const write = (file: string) => {
    const subset = extract(readJson<Description>(file), `${OPENAPI_PACKAGE}@${version}`)
    writeSubset(OUTPUT, subset)
    const counts = `${Object.keys(subset.operations).length} operations, ${Object.keys(subset.webhooks).length} webhooks, ${Object.keys(subset.components.schemas).length} schemas`
    console.log(`wrote ${OUTPUT} (${counts})`)
  }
  if (from) write(from)
  else withPackedFile(`${OPENAPI_PACKAGE}@${version}`, `package/${DESCRIPTION_FILE}`, 'about 30 MB', write)
}

function extract(description: Description, origin: string) {
  const operations: Record<string, { method: string; path: string; responses: Record<string, { schema?: Json }> }> = {}
  for (const op of OPERATIONS) {
    const found = findOperation(description, op)
    const responses: Record<string, { schema?: Json }> = {}
    for (const [status, raw] of Object.entries(found.responses as JsonObject)) {
      const schema = jsonSchemaOf(resolveResponse(description, raw as JsonObject))
      responses[status] = schema === undefined ? {} : { schema: clean(schema) }
    }
    operations[op.operationId] = { method: op.method, path: op.path, responses }
  }

  const webhooks: Record<string, { event: string; action?: string; schema: Json }> = {}
  for (const hook of WEBHOOKS) {
    const schema = jsonSchemaOf(description['x-webhooks'][hook.name]?.post?.requestBody as JsonObject | undefined)
    if (schema === undefined) throw new Error(`webhook ${hook.name} has no JSON payload schema in the description`)
    webhooks[hook.name] = { event: hook.event, ...('action' in hook ? { action: hook.action } : {}), schema: clean(schema) }
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
    components: { schemas: schemaClosure(description, schemaRefs({ operations, webhooks } as unknown as Json), clean) },
  }
}

function clean(value: Json): Json {
  return withoutKeys(value, DROPPED_KEYS)
}

if (isScript(import.meta.url)) main()
