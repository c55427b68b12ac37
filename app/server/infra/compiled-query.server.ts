import { randomUUID } from 'node:crypto'
import type { Compilable, CompiledQuery } from 'kysely'
import { db } from './db.server.ts'

/**
 * A read whose SQL never changes but for its values, compiled by Kysely once per process instead of on
 * every call (issue 28: building and compiling the listing page's read — its Changelog and reviews as
 * JSON subqueries — took ~0.6 ms of a ~10 ms request, the largest cost the app added over floor G).
 *
 * `build` is called once, with a placeholder for each value, and must hand every value to Kysely as a
 * value (a bound parameter), never into the SQL's text. That is checked when it compiles: each
 * placeholder must come back as one or more of the query's parameters and nowhere in its text, else this
 * throws at the first call. Each call then runs the same SQL with its own values in those places (the
 * other parameters, constants such as a LIMIT, stay as compiled; a Date among them is refused: it would
 * be the first call's time for ever). Plugins (the camel-case one) apply to the results as
 * they do for any query.
 *
 * Kysely has no such cache of its own: a query builder is rebuilt and recompiled each time it runs.
 */
export function compileOnce<Args extends string[], Row>(
  arity: Args['length'],
  build: (...placeholders: Args) => Compilable<Row>,
): (...values: Args) => Promise<Row[]> {
  let compiled: { query: CompiledQuery<Row>; positions: number[][] } | undefined
  const compile = () => {
    const placeholders = Array.from({ length: arity }, (_, i) => `\u0000compile-once:${i}:${randomUUID()}`) as Args
    const query = build(...placeholders).compile()
    const positions = placeholders.map((placeholder) => {
      const at = query.parameters.flatMap((parameter, index) => (parameter === placeholder ? [index] : []))
      if (at.length === 0 || query.sql.includes(placeholder))
        throw new Error(`compileOnce: value ${placeholders.indexOf(placeholder)} must be a bound parameter, not in the SQL's text`)
      return at
    })
    // A time among the other values would be the first call's for ever (a `now` read once): refused.
    if (query.parameters.some((parameter) => parameter instanceof Date))
      throw new Error('compileOnce: a Date among the values would be frozen at the first call; pass the time as a value (its ISO text)')
    return { query, positions }
  }
  return async (...values) => {
    compiled ??= compile()
    const parameters = [...compiled.query.parameters]
    compiled.positions.forEach((positions, i) => {
      for (const position of positions) parameters[position] = values[i]
    })
    const result = await db.executeQuery<Row>({ ...compiled.query, parameters })
    return result.rows
  }
}
