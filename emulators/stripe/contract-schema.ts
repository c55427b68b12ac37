/**
 * Helpers of the Stripe contract test (contract.test.ts) for reading openapi-subset.json:
 * OpenAPI 3.0's `nullable` turned into JSON Schema for ajv, and the check that expandable fields
 * are ids unless the request expanded them.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export type JsonSchema = { [key: string]: unknown }

/** OpenAPI 3.0 → JSON Schema: `nullable: true` becomes "this, or null" (Stripe's description uses it with `type` and with `anyOf`). */
export function forAjv(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forAjv)
  if (value === null || typeof value !== 'object') return value
  const object: JsonSchema = {}
  for (const [key, child] of Object.entries(value)) object[key] = key === 'properties' ? mapValues(child as JsonSchema) : forAjv(child)
  if (object.nullable !== true) return object
  delete object.nullable
  return { anyOf: [object, { type: 'null' }] }
}

function mapValues(properties: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, forAjv(schema)]))
}

/**
 * Walks a response (or a webhook's object) beside its schema. A field the description marks
 * expandable (`x-expansionResources`, i.e. `anyOf: [id, object]`) must be an id or null unless its
 * dotted path (Stripe's `expand[]` syntax: `latest_charge`, `data.refunds`, `charge.payment_intent`)
 * was asked for, and an object when it was. Returns the problems and how many expanded objects it saw.
 */
export function unexpandedProblems(
  schemas: Record<string, JsonSchema>,
  root: JsonSchema,
  value: unknown,
  expand: string[],
): { problems: string[]; expanded: number } {
  const problems: string[] = []
  let expanded = 0
  const resolve = (schema: JsonSchema): JsonSchema => {
    const ref = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined
    if (ref === undefined) return schema
    const target = schemas[ref]
    if (!target) throw new Error(`openapi-subset.json lacks ${schema.$ref}`)
    return resolve(target)
  }

  const walk = (given: JsonSchema, node: unknown, path: string[]): void => {
    if (node === null || node === undefined) return
    const schema = resolve(given)
    const where = path.join('.') || '(root)'
    if (Array.isArray(schema['x-expansionResources'])) {
      const asked = expand.includes(where)
      if (!asked) {
        if (typeof node !== 'string') problems.push(`${where} is an object, but expand[] did not ask for it (Stripe sends the id)`)
        return
      }
      if (typeof node === 'string') {
        problems.push(`${where} was expanded but is still the id ${node}`)
        return
      }
      expanded += 1
    }
    if (Array.isArray(node)) {
      const items = schema.items as JsonSchema | undefined
      if (items) for (const item of node) walk(items, item, path)
      return
    }
    if (typeof node !== 'object') return
    const record = node as Record<string, unknown>
    const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined
    if (alternatives) {
      const objects = alternatives.map(resolve).filter((option) => option.properties !== undefined)
      const kind = record.object
      const chosen = objects.find((option) => enumOf(option, 'object')?.includes(kind)) ?? objects[0]
      if (chosen) walk(chosen, node, path)
      return
    }
    const properties = schema.properties as Record<string, JsonSchema> | undefined
    if (!properties) return
    for (const [name, child] of Object.entries(properties)) {
      if (name in record) walk(child, record[name], [...path, name])
    }
  }

  walk(root, value, [])
  return { problems, expanded }
}

function enumOf(schema: JsonSchema, property: string): unknown[] | undefined {
  const properties = schema.properties as Record<string, JsonSchema> | undefined
  return properties?.[property]?.enum as unknown[] | undefined
}

/**
 * The fields a response (or a webhook's object) carries that its schema does not declare, as
 * `schema.field` (`payment_intent.customer_account`; an inline object is named by its parent's
 * field, `charge.refunds.foo`). Stripe's schemas allow any property, so ajv alone lets an invented
 * field through; the contract test compares these with the fields newer than the description.
 */
export function undeclaredFields(schemas: Record<string, JsonSchema>, root: JsonSchema, value: unknown): Set<string> {
  const found = new Set<string>()
  const walk = (given: JsonSchema, node: unknown, name: string): void => {
    if (node === null || typeof node !== 'object') return
    let schema = given
    while (typeof schema.$ref === 'string') {
      name = schema.$ref.replace('#/components/schemas/', '')
      schema = schemas[name] ?? {}
    }
    if (Array.isArray(node)) {
      const items = schema.items as JsonSchema | undefined
      if (items) for (const item of node) walk(items, item, name)
      return
    }
    const record = node as Record<string, unknown>
    const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined
    if (alternatives) {
      const named = alternatives.map((option) => ({ option, target: refTarget(schemas, option) }))
      const objects = named.filter(({ target }) => target.properties !== undefined)
      const chosen = objects.find(({ target }) => enumOf(target, 'object')?.includes(record.object)) ?? objects[0]
      if (chosen) walk(chosen.option, node, name)
      return
    }
    const properties = schema.properties as Record<string, JsonSchema> | undefined
    if (!properties) return
    for (const [field, child] of Object.entries(record)) {
      if (properties[field]) walk(properties[field], child, `${name}.${field}`)
      else found.add(`${name}.${field}`)
    }
  }
  walk(root, value, '(root)')
  return found
}

function refTarget(schemas: Record<string, JsonSchema>, schema: JsonSchema): JsonSchema {
  let target = schema
  while (typeof target.$ref === 'string') target = schemas[target.$ref.replace('#/components/schemas/', '')] ?? {}
  return target
}

/** The `stripe` package's declaration of each top-level object the emulator sends: its file and interface. */
const PINNED_DECLARATIONS: Record<string, [file: string, name: string]> = {
  charge: ['Charges.d.ts', 'Charge'],
  payment_intent: ['PaymentIntents.d.ts', 'PaymentIntent'],
  payment_method: ['PaymentMethods.d.ts', 'PaymentMethod'],
  refund: ['Refunds.d.ts', 'Refund'],
}

/**
 * The fields of an object as the `stripe` package in node_modules declares them (its types are made
 * from Stripe's description at the API version it pins): field → whether it may be absent (`field?:`).
 * Undefined for an object the emulator does not send at top level.
 */
export function pinnedFields(object: string, resourcesDir: string): Map<string, boolean> | undefined {
  const declared = PINNED_DECLARATIONS[object]
  if (!declared) return undefined
  const key = join(resourcesDir, declared[0])
  let fields = pinnedCache.get(key)
  if (!fields) pinnedCache.set(key, (fields = readPinnedFields(resourcesDir, declared)))
  return fields
}

const pinnedCache = new Map<string, Map<string, boolean>>()

function readPinnedFields(resourcesDir: string, declared: [file: string, name: string]): Map<string, boolean> {
  const source = readFileSync(join(resourcesDir, declared[0]), 'utf8')
  const start = source.indexOf(`\nexport interface ${declared[1]} {\n`)
  if (start < 0) throw new Error(`${declared[0]} no longer declares ${declared[1]}`)
  const body = source.slice(start, source.indexOf('\n}', start))
  return new Map([...body.matchAll(/^ {4}(\w+)(\??): /gm)].map((match) => [match[1]!, match[2] === '?']))
}
