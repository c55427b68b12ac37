import { data } from 'react-router'

/** An endpoint whose issue has not landed yet answers 501 plainly (never fake data). */
export function notBuilt() {
  return data({ error: 'Not implemented yet' }, { status: 501 })
}
