/**
 * Regenerates `emulators/supabase-auth/openapi-subset.json`: the response schemas of exactly the
 * GoTrue operations the Supabase Auth emulator implements (listed in `operations.ts`), copied from
 * GoTrue's published OpenAPI description (`openapi.yaml` in the supabase/auth repository) with
 * every `#/components/schemas/…` they need, plus GoTrue's error codes and error bodies.
 *
 *   npx tsx emulators/supabase-auth/extract-openapi.ts --repo /path/to/supabase-auth-clone
 *       reads openapi.yaml and internal/api/apierrors/errorcode.go at DESCRIPTION_COMMIT
 *       (`--commit <sha>` for another one) with `git show`
 *   npx tsx emulators/supabase-auth/extract-openapi.ts --from openapi.yaml --error-codes errorcode.go --commit <sha>
 *       two files copied out of a checkout of that commit
 *
 * The description is not published to any package registry, so a copy of the repository is needed.
 * `info.version` of the description is always "latest": the commit (and `git describe`) is recorded.
 *
 * What the description does not say, taken from GoTrue's Go source at the same commit:
 * - Error bodies depend on the `X-Supabase-Api-Version` request header (internal/api/errors.go):
 *   without it (or before 2024-01-01) `{ code: <HTTP status>, error_code, msg }` (the description's
 *   ErrorSchema); from 2024-01-01 on — what supabase-js sends — `{ code: <error code>, message }`
 *   (HTTPErrorResponse20240101), with the version echoed in the response header. OAuth-style errors
 *   (`{ error, error_description }`, always 400) ignore the version.
 * - The error codes are the `ErrorCode` constants of internal/api/apierrors/errorcode.go.
 * - CORRECTIONS: where the description contradicts GoTrue's own model, the model wins (recorded).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import {
  findOperation,
  isScript,
  jsonSchemaOf,
  option,
  resolveResponse,
  schemaClosure,
  schemaRefs,
  withoutKeys,
  writeSubset,
  type Json,
  type JsonObject,
  type OpenApiDescription,
} from '../support/openapi-subset.ts'
import { OPERATIONS } from './operations.ts'

export const DESCRIPTION_REPOSITORY = 'supabase/auth'
/** v2.196.0 plus two commits (2026-08-20). */
export const DESCRIPTION_COMMIT = 'bc32168e13fdc928c98b449fc76bc3fdb9a293c5'
const DESCRIPTION_FILE = 'openapi.yaml'
const ERROR_CODES_FILE = 'internal/api/apierrors/errorcode.go'
const OUTPUT = fileURLToPath(new URL('./openapi-subset.json', import.meta.url))
const DROPPED_KEYS = new Set(['example', 'examples', 'description', 'externalDocs'])

interface Correction {
  pointer: string
  remove: string
  reason: string
}

export const CORRECTIONS: Correction[] = [
  {
    pointer: '/components/schemas/IdentitySchema/properties/id',
    remove: 'format',
    reason:
      'The description types an identity\'s `id` as a uuid, but internal/models/identity.go serialises ProviderID (`json:"id"`, a string: ' +
      "the provider's own account id, e.g. GitHub's numeric user id) under that name; `identity_id` is the uuid.",
  },
]

function main(): void {
  const args = process.argv.slice(2)
  const repo = option(args, '--repo')
  const commit = option(args, '--commit') ?? DESCRIPTION_COMMIT
  let yamlText: string
  let goText: string
  let release: string | undefined
  if (repo) {
    const git = (...gitArgs: string[]) => execFileSync('git', ['-C', repo, ...gitArgs], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    yamlText = git('show', `${commit}:${DESCRIPTION_FILE}`)
    goText = git('show', `${commit}:${ERROR_CODES_FILE}`)
    release = git('describe', '--tags', commit).trim()
  } else {
    const from = option(args, '--from')
    const errorCodes = option(args, '--error-codes')
    if (!from || !errorCodes) {
      throw new Error(
        'usage: --repo <supabase/auth clone> [--commit <sha>] | --from <openapi.yaml> --error-codes <errorcode.go> --commit <sha>',
      )
    }
    yamlText = readFileSync(from, 'utf8')
    goText = readFileSync(errorCodes, 'utf8')
  }
  const subset = extract(parse(yamlText) as OpenApiDescription, parseErrorCodes(goText), { commit, release })
  writeSubset(OUTPUT, subset)
  const counts = `${Object.keys(subset.operations).length} operations, ${Object.keys(subset.components.schemas).length} schemas, ${subset.errors.codes.length} error codes`
  console.log(`wrote ${OUTPUT} (${counts})`)
}

/** The string values of the `ErrorCode` constants in errorcode.go. */
export function parseErrorCodes(goSource: string): string[] {
  const codes = [...goSource.matchAll(/^\s*ErrorCode\w*\s+ErrorCode\s*=\s*"([a-z0-9_]+)"/gm)].map((match) => match[1])
  if (codes.length < 20) throw new Error(`only ${codes.length} error codes found in ${ERROR_CODES_FILE}`)
  return [...new Set(codes)].sort()
}

export function extract(description: OpenApiDescription, errorCodes: string[], origin: { commit: string; release?: string }) {
  const operations: Record<string, { method: string; path: string; responses: Record<string, JsonObject> }> = {}
  for (const op of OPERATIONS) {
    const found = findOperation(description, op)
    const responses: Record<string, JsonObject> = {}
    for (const [status, raw] of Object.entries(found.responses as JsonObject)) {
      const response = resolveResponse(description, raw as JsonObject)
      const schema = jsonSchemaOf(response)
      const headers = response.headers as Record<string, JsonObject> | undefined
      const entry: JsonObject = {}
      if (schema !== undefined) entry.schema = clean(schema)
      if (headers) {
        entry.headers = Object.fromEntries(
          Object.entries(headers).map(([name, header]) => [name.toLowerCase(), clean(header.schema ?? {})]),
        )
      }
      responses[String(status)] = entry
    }
    operations[`${op.method} ${op.path}`] = { method: op.method, path: op.path, responses }
  }

  const roots = [...schemaRefs(operations as unknown as Json), 'ErrorSchema']
  const subset = {
    source: {
      repository: DESCRIPTION_REPOSITORY,
      commit: origin.commit,
      ...(origin.release ? { release: origin.release } : {}),
      file: DESCRIPTION_FILE,
      errorCodesFile: ERROR_CODES_FILE,
      openapi: description.openapi,
      infoVersion: description.info.version,
      regenerate: 'npx tsx emulators/supabase-auth/extract-openapi.ts --repo <a clone of supabase/auth>',
    },
    corrections: CORRECTIONS,
    operations,
    errors: errorSchemas(errorCodes),
    components: { schemas: schemaClosure(description, roots, clean) },
  }
  for (const correction of CORRECTIONS) applyCorrection(subset as unknown as JsonObject, correction)
  return subset
}

/**
 * GoTrue's three error bodies, strict (every field required, nothing else), from internal/api/errors.go
 * and internal/api/apierrors/apierrors.go. `initial` is the description's ErrorSchema narrowed to what
 * HTTPError serialises.
 */
function errorSchemas(codes: string[]) {
  const code = { type: 'string', enum: codes }
  return {
    codes,
    apiVersion: '2024-01-01',
    apiVersion20240101: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: { code, message: { type: 'string' } },
    },
    initial: {
      allOf: [
        { $ref: '#/components/schemas/ErrorSchema' },
        {
          type: 'object',
          required: ['code', 'error_code', 'msg'],
          additionalProperties: false,
          properties: { code: { type: 'integer' }, error_code: code, msg: { type: 'string' }, error_id: { type: 'string' } },
        },
      ],
    },
    oauth: {
      allOf: [
        { $ref: '#/components/schemas/ErrorSchema' },
        {
          type: 'object',
          required: ['error'],
          additionalProperties: false,
          properties: { error: { type: 'string' }, error_description: { type: 'string' } },
        },
      ],
    },
  }
}

function applyCorrection(root: JsonObject, correction: Correction): void {
  let target: Json = root
  for (const segment of correction.pointer.split('/').slice(1)) {
    target = (target as JsonObject | undefined)?.[segment] ?? null
  }
  if (target === null || typeof target !== 'object' || Array.isArray(target) || !(correction.remove in target)) {
    throw new Error(`correction no longer applies: ${correction.pointer} has no ${correction.remove}`)
  }
  delete target[correction.remove]
}

function clean(value: Json): Json {
  return withoutKeys(value, DROPPED_KEYS)
}

if (isScript(import.meta.url)) main()
