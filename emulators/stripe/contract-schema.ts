/**
 * Helpers of the Stripe contract test (contract.test.ts) for reading openapi-subset.json:
 * OpenAPI 3.0's `nullable` turned into JSON Schema for ajv, and the check that expandable fields
 * are ids unless the request expanded them.
 */

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
