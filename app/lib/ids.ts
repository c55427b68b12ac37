const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The one id check: a string PostgreSQL accepts as a uuid (anything else would
 * make a query throw, so a malformed id in a path or body is "not found").
 * Zod schemas use it as `z.string().refine(isUuid)`; kept free of Zod so public
 * pages' bundles can use it too.
 */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value)
}
