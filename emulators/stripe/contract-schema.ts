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
 * field, `charge.refunds.foo`) and that the pinned `stripe` package's types do not declare either (the
 * description predates the pinned API version). Stripe's schemas allow any property, so ajv alone lets
 * an invented field through.
 */
export function undeclaredFields(schemas: Record<string, JsonSchema>, root: JsonSchema, value: unknown, resourcesDir: string): Set<string> {
  const found = new Set<string>()
  type Pinned = { file: string; name: string } | undefined
  let pinned: Pinned
  const walk = (given: JsonSchema, node: unknown, name: string): void => {
    if (node === null || typeof node !== 'object') return
    const outer = pinned
    const declared = Array.isArray(node) ? undefined : PINNED_DECLARATIONS[String((node as { object?: unknown }).object)]
    if (declared) pinned = { file: join(resourcesDir, declared[0]), name: declared[1] }
    try {
      visit(given, node, name)
    } finally {
      pinned = outer
    }
  }
  const visit = (given: JsonSchema, node: object, name: string): void => {
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
    const here = pinned
    for (const [field, child] of Object.entries(record)) {
      pinned = here && { file: here.file, name: `${here.name}.${pascalCase(field)}` }
      if (properties[field]) walk(properties[field], child, `${name}.${field}`)
      else if (!(here && interfacesOf(here.file).get(here.name)?.has(field))) found.add(`${name}.${field}`)
    }
    pinned = here
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
 * The fields the pinned package's types say are always present (no `?`) that an object lacks, at any
 * depth its sub-objects have an interface of their own (`charge.payment_method_details.card.checks`).
 */
export function missingPinnedFields(value: unknown, resourcesDir: string): string[] {
  const missing: string[] = []
  const walk = (node: Record<string, unknown>, file: string, name: string, path: string): void => {
    const fields = interfacesOf(file).get(name)
    if (!fields) return
    for (const [field, optional] of fields) if (!optional && !(field in node)) missing.push(`${path}.${field}`)
    for (const [field, child] of Object.entries(node)) {
      if (child === null || typeof child !== 'object' || Array.isArray(child)) continue
      const record = child as Record<string, unknown>
      if (typeof record.object === 'string') start(record, `${path}.${field}`)
      else walk(record, file, `${name}.${pascalCase(field)}`, `${path}.${field}`)
    }
  }
  const start = (node: Record<string, unknown>, path: string) => {
    const declared = PINNED_DECLARATIONS[String(node.object)]
    if (declared) walk(node, join(resourcesDir, declared[0]), declared[1], path)
  }
  const record = value as { object?: string; data?: unknown[] }
  for (const item of record.object === 'list' ? (record.data ?? []) : [record]) {
    const node = item as Record<string, unknown>
    start(node, String(node.object))
  }
  return missing
}

const pascalCase = (field: string) => field.replace(/(^|_)(\w)/g, (_, _sep: string, letter: string) => letter.toUpperCase())

const interfaceCache = new Map<string, Map<string, Map<string, boolean>>>()

function interfacesOf(file: string): Map<string, Map<string, boolean>> {
  let found = interfaceCache.get(file)
  if (!found) interfaceCache.set(file, (found = pinnedInterfaces(file)))
  return found
}

/**
 * Every interface a declaration file of the `stripe` package declares, by its dotted name within the
 * file's namespaces (`Charge`, `Charge.PaymentMethodDetails.Card`): field → whether it may be absent.
 */
export function pinnedInterfaces(file: string): Map<string, Map<string, boolean>> {
  const interfaces = new Map<string, Map<string, boolean>>()
  const stack: Array<{ indent: number; name: string; fields?: Map<string, boolean> }> = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const indent = line.length - line.trimStart().length
    const opened = /^\s*(?:export )?(?:declare )?(interface|namespace) (\w+)(?:<[^>]*>)? \{$/.exec(line)
    if (opened) {
      const name = [...stack.map((entry) => entry.name), opened[2]!].join('.')
      const fields = opened[1] === 'interface' ? new Map<string, boolean>() : undefined
      if (fields) interfaces.set(name, fields)
      stack.push({ indent, name: opened[2]!, fields })
      continue
    }
    const top = stack.at(-1)
    if (top && indent === top.indent && line.trim() === '}') stack.pop()
    const field = top?.fields && indent === top.indent + 4 ? /^\s*(\w+)(\??): /.exec(line) : null
    if (field) top!.fields!.set(field[1]!, field[2] === '?')
  }
  return interfaces
}
